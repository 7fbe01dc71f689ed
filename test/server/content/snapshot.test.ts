import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentFiles } from '../../../src/server/content/content-files.ts';
import { contentFingerprint, peekPage, readSnapshot, SNAPSHOT_FILE, writeSnapshot } from '../../../src/server/content/snapshot.ts';
import { loadSite, type SourcePage } from '../../../src/server/content/site.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { makeLocales, makePage } from '../../helpers/content.ts';
import { makeVersionedRoot, versionsJson } from '../../helpers/versions.ts';

/** A small site in two locales, one page long enough to need more than one read buffer, and one in Arabic. */
function makeSnapshotSite() {
  const long = `${'Ein Absatz mit Umlauten: äöü ß, und ein Emoji 🎉. '.repeat(3000)}\n`;
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/docs/long.md': makePage({ title: 'Long' }, long) },
    ar: { 'pages/index.md': makePage({ title: 'الرئيسية' }, '## مرحبا\n\nنص عربي.\n') },
  });
  const messages = loadMessages(dir, ['en', 'ar'], 'en');
  return { site: loadSite(dir, ['en', 'ar'], 'en', messages), messages };
}

test('a written snapshot reads back as the same site, every page and its HTML', async () => {
  const { site, messages } = makeSnapshotSite();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-snapshot-'));
  writeSnapshot(dist, 'fp1', site, messages);
  const loaded = readSnapshot(dist, 'fp1');
  assert.ok(loaded);
  assert.deepEqual(loaded.site.locales, site.locales);
  assert.deepEqual(loaded.messages, messages);
  assert.deepEqual(loaded.site.translations, site.translations);
  for (const locale of site.locales) {
    const written = site.pages.get(locale)!;
    const back: ReadonlyMap<string, SourcePage> = loaded.site.pages.get(locale)!;
    assert.deepEqual([...back.keys()], [...written.keys()], locale);
    for (const [slug, page] of written) {
      const { html, headings, markdown, sections: _sections, ...rest } = page;
      const { html: readHtml, headings: readHeadings, markdown: readMarkdown, sections, ...readRest } = back.get(slug)!;
      assert.deepEqual(readRest, rest, `${locale}/${slug}`);
      assert.deepEqual(sections, [], 'section text stays in the search index files');
      assert.equal(readHtml(), html(), `${locale}/${slug}`);
      assert.deepEqual(readHeadings(), headings(), `${locale}/${slug}`);
      assert.equal(readMarkdown(), markdown(), `${locale}/${slug}: its Markdown twin`);
    }
  }
  const long = loaded.site.pages.get('en')!.get('docs/long')!.html();
  assert.ok(Buffer.byteLength(long) > 64 * 1024, 'the long page is larger than the first read buffer');
  // A short page read after the long one is itself, not the long one's leftover bytes.
  assert.equal(loaded.site.pages.get('ar')!.get('')!.html(), site.pages.get('ar')!.get('')!.html());
  assert.equal(loaded.site.paths.pathOf('ar', 'docs/long'), site.paths.pathOf('ar', 'docs/long'));
});

test("the snapshot is a header, a line indexing each locale's pages, and one line per page, so no single string holds it all", () => {
  const { site, messages } = makeSnapshotSite();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-snapshot-'));
  writeSnapshot(dist, 'fp1', site, messages);
  const [header, ...rest] = readFileSync(join(dist, SNAPSHOT_FILE), 'utf8').trimEnd().split('\n');
  JSON.parse(header!);
  const indexes = rest.slice(0, site.locales.length).map((line) => JSON.parse(line));
  const lines = rest.slice(site.locales.length);
  let pages = 0;
  for (const served of site.pages.values()) pages += served.size;
  assert.equal(lines.length, pages);
  // Each index names its locale, then each page's key, its path (0: the key), its own share image (1) and its line's bytes.
  assert.deepEqual(
    indexes.map((index) => index[0]),
    site.locales,
  );
  const indexed = indexes.flatMap(([locale, ...items]) =>
    Array.from({ length: items.length / 4 }, (_, i) => [locale, ...items.slice(i * 4, i * 4 + 4)]),
  );
  assert.equal(indexed.length, pages);
  for (const [at, line] of lines.entries()) {
    const [entry, page, ...more] = line.split('\t');
    assert.deepEqual(more, []);
    const [locale, key, localPath] = JSON.parse(entry!);
    assert.equal(site.pages.get(locale)!.get(key)!.localPath, localPath);
    assert.equal(JSON.parse(page!).title, site.pages.get(locale)!.get(key)!.title);
    assert.deepEqual(indexed[at], [locale, key, localPath === key ? 0 : localPath, 0, Buffer.byteLength(line)]);
  }
});

test('start-up parses no page of the snapshot until it is used, and a parsed page is kept', () => {
  const { site, messages } = makeSnapshotSite();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-snapshot-'));
  writeSnapshot(dist, 'fp1', site, messages);
  const parsed: string[] = [];
  const parse = JSON.parse;
  JSON.parse = (text: string, ...rest: never[]) => {
    const value = parse(text, ...rest);
    if (value && typeof value === 'object' && 'contentLocale' in value) parsed.push(value.title);
    return value;
  };
  let loaded: ReturnType<typeof readSnapshot>;
  try {
    loaded = readSnapshot(dist, 'fp1');
    assert.deepEqual(parsed, [], 'no page parsed at start');
    assert.equal(loaded!.site.paths.pathOf('en', 'docs/long'), '/en/docs/long');
    assert.equal(loaded!.site.pages.get('en')!.size, site.pages.get('en')!.size);
    assert.ok(loaded!.site.pages.get('en')!.has('docs/long'));
    assert.deepEqual(parsed, [], 'paths, sizes and keys need no page');
    const long = loaded!.site.pages.get('en')!.get('docs/long');
    assert.equal(long?.title, 'Long');
    assert.equal(loaded!.site.pages.get('en')!.get('docs/long'), long, 'the same object the second time');
    assert.deepEqual(parsed, ['Long']);
    assert.deepEqual(
      [...loaded!.site.pages.get('en')!.values()].map((page) => page.title),
      [...site.pages.get('en')!.values()].map((page) => page.title),
      'iterating parses the rest, in order',
    );
  } finally {
    JSON.parse = parse;
  }
});

test('a snapshot of other content, or none, or of an older layout, is not used', () => {
  const { site, messages } = makeSnapshotSite();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-snapshot-'));
  assert.equal(readSnapshot(dist, 'fp1'), null);
  writeSnapshot(dist, 'fp1', site, messages);
  assert.equal(readSnapshot(dist, 'fp2'), null);
  assert.ok(readSnapshot(dist, 'fp1'));
  // An older build's layout, for the same content: compiled again rather than misread.
  const [header, ...pages] = readFileSync(join(dist, SNAPSHOT_FILE), 'utf8').split('\n');
  writeFileSync(join(dist, SNAPSHOT_FILE), [JSON.stringify({ ...JSON.parse(header!), format: 1 }), ...pages].join('\n'));
  assert.equal(readSnapshot(dist, 'fp1'), null);
});

/** `changed(what)` asserts that `fingerprint` is one it never gave before (since this was made). */
function changeChecker(fingerprint: () => string): (what: string) => void {
  const seen = new Set([fingerprint()]);
  return (what) => {
    const now = fingerprint();
    assert.ok(!seen.has(now), what);
    seen.add(now);
  };
}

test("the content's fingerprint changes with a file's size or time, and a file added or renamed", () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/a.md': makePage({ title: 'A' }) } });
  const fingerprint = () => contentFingerprint(dir, ['en'], 'en');
  assert.equal(fingerprint(), fingerprint(), 'the same folder, the same fingerprint');
  const changed = changeChecker(fingerprint);
  appendFileSync(join(dir, 'en/pages/a.md'), 'more\n');
  changed('a longer file');
  utimesSync(join(dir, 'en/pages/a.md'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  changed('an older modification time');
  writeFileSync(join(dir, 'en/pages/b.md'), makePage({ title: 'B' }));
  changed('a file added');
  renameSync(join(dir, 'en/pages/b.md'), join(dir, 'en/pages/c.md'));
  changed('a file renamed');
  assert.notEqual(contentFingerprint(dir, ['en'], 'fr'), fingerprint(), 'another default locale');
});

test("the content's fingerprint sees a change deep in a folder, and in a version's frozen docs", () => {
  const { root, localesDir } = makeVersionedRoot(
    { en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/docs/guide/deep/a.md': makePage({ title: 'A' }) } },
    {
      'versions.json': versionsJson({ label: '2.0', released: true }, [{ name: '1.0', label: '1.x' }]),
      '1.0/en/pages/docs/guide/deep/a.md': makePage({ title: 'A, then' }),
    },
  );
  const fingerprint = () => contentFingerprint(localesDir, ['en'], 'en');
  const changed = changeChecker(fingerprint);
  appendFileSync(join(localesDir, 'en/pages/docs/guide/deep/a.md'), 'more\n');
  changed('a longer file three folders down');
  appendFileSync(join(root, 'versions/1.0/en/pages/docs/guide/deep/a.md'), 'more\n');
  changed("a longer file in a version's docs");
  utimesSync(join(root, 'versions/1.0/en/pages/docs/guide/deep/a.md'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  changed("an older time of a file in a version's docs");
  // The same name and bytes in another folder is another tree.
  mkdirSync(join(root, 'versions/1.0/en/pages/docs/guide/other'));
  renameSync(join(root, 'versions/1.0/en/pages/docs/guide/deep/a.md'), join(root, 'versions/1.0/en/pages/docs/guide/other/a.md'));
  changed('a file moved to another folder');
  writeFileSync(join(root, 'versions/versions.json'), versionsJson({ label: '2.0', released: true }, [{ name: '1.0', label: '1.0.x' }]));
  changed('versions.json rewritten');
  assert.equal(fingerprint(), fingerprint(), 'unchanged, the same fingerprint');
  // The build hashes the walk it made for its caches; start-up hashes as it walks: the same fingerprint.
  assert.equal(contentFingerprint(localesDir, ['en'], 'en', contentFiles(localesDir)), fingerprint());
});

test('a page read for a docs tree is not kept: the reader who opens it gets the one kept', () => {
  const { site, messages } = makeSnapshotSite();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-snapshot-'));
  writeSnapshot(dist, 'fp1', site, messages);
  const pages = readSnapshot(dist, 'fp1')!.site.pages.get('en')!;
  const peeked = peekPage(pages, 'docs/long');
  assert.equal(peeked?.title, 'Long');
  assert.notEqual(peekPage(pages, 'docs/long'), peeked, 'parsed for each caller, kept by none');
  const opened = pages.get('docs/long');
  assert.equal(opened?.title, 'Long');
  assert.equal(peekPage(pages, 'docs/long'), opened, 'once opened, a peek gets the kept page');
  assert.equal(peekPage(pages, 'docs/none'), undefined);
});
