import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileForPath, OutputFolder } from '../../src/export/files.ts';
import { dataUrl } from '../../src/routes/page-data.ts';

const cases: [string, string, string][] = [
  ['a locale home', '/en', 'en.html'],
  ['a nested page (no trailing-slash folder)', '/de/docs/guides/install', 'de/docs/guides/install.html'],
  ['a non-ASCII path, stored decoded as hosts look it up', '/ja/%E6%A6%82%E8%A6%81', 'ja/概要.html'],
  ['an Arabic path', '/ar/%D8%AD%D9%88%D9%84', 'ar/حول.html'],
  ['a space and a plus', '/fr/a%20b+c', 'fr/a b+c.html'],
];
for (const [name, path, file] of cases) {
  test(`fileForPath maps ${name}: ${path} -> ${file}`, () => {
    assert.equal(fileForPath(path, '.html'), file);
  });
}

test("page data keeps its URL as its file's name, decoded", () => {
  assert.equal(fileForPath(dataUrl('b1', '/ja/%E6%A6%82%E8%A6%81')), '_data/b1/ja/概要.json');
  assert.equal(fileForPath(dataUrl('b1', '/en')), '_data/b1/en.json');
  assert.equal(fileForPath('/sitemap.xml'), 'sitemap.xml');
});

for (const path of ['/', '', 'en', '/en/../x', '/en/%2E%2E/x', '/en/a%2Fb', '/en/a%5Cb', '/en//x', '/en/%E0%A4%A', '/en/a%00b']) {
  test(`fileForPath refuses ${JSON.stringify(path)}: no host maps it to one file`, () => {
    assert.throws(() => fileForPath(path, '.html'), /ExportError: no file for the path/);
  });
}

test('an output folder makes its folders and counts files and bytes', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'polysite-files-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = new OutputFolder(dir);
  out.write('ja/概要.html', 'あ');
  out.write('a/b/c.json', Buffer.from('{}'));
  assert.equal(readFileSync(join(dir, 'ja', '概要.html'), 'utf8'), 'あ');
  assert.equal(out.files, 2);
  assert.equal(out.bytes, 3 + 2);
});

test('a file written twice is an error, never a silent overwrite, also when the names differ only in case', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'polysite-files-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const out = new OutputFolder(root);
  out.write('en/404.html', 'a page whose slug is 404');
  assert.throws(() => out.write('en/404.html', 'the not-found page'), /two files would be written as en\/404\.html: rename one/);
  out.write('en/about.html', 'about');
  assert.throws(() => out.write('en/About.html', 'About'), /en\/About\.html and en\/about\.html/);
  assert.equal(readFileSync(join(root, 'en/404.html'), 'utf8'), 'a page whose slug is 404');
});
