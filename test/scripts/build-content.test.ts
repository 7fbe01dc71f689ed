import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compileSite, contentCompiler } from '../../scripts/build-content.ts';
import { ROOT_DIR } from '../../src/server/config.ts';
import type { ContentError } from '../../src/server/content/errors.ts';
import { loadSite, type SourcePage } from '../../src/server/content/site.ts';
import { readSnapshot } from '../../src/server/content/snapshot.ts';
import { loadMessages } from '../../src/server/content/messages.ts';
import { makeIndexFiles } from '../../src/server/site/search-indexes.ts';
import { makeLocales, makePage } from '../helpers/content.ts';

// A large site's content is compiled and indexed in several threads (a share of the
// locales each) and joined: the result must be the site and the search indexes one
// thread makes, and its problems the same.

const compileBoth = async (dir: string, locales: string[]) => {
  const messages = loadMessages(dir, locales, locales[0]!);
  return { joined: await compileSite(dir, locales, locales[0]!, { workersFrom: 0, cpus: 2 }), messages };
};

test('the site compiled in several threads is the one-thread site: every page of every locale, HTML and paths, read back from its snapshot', async () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const dir = join(ROOT_DIR, 'locales');
  const { joined, messages } = await compileBoth(dir, locales);
  const dist = mkdtempSync(join(tmpdir(), 'polysite-joined-'));
  joined.writeSnapshot(dist, 'fp');
  const read = readSnapshot(dist, 'fp');
  assert.ok(read, 'the snapshot reads back');
  const single = loadSite(dir, locales, 'en', messages);
  assert.deepEqual([...read.site.pages.keys()], [...single.pages.keys()]);
  for (const [locale, pages] of single.pages) {
    const other: ReadonlyMap<string, SourcePage> = read.site.pages.get(locale)!;
    assert.deepEqual([...other.keys()], [...pages.keys()], locale);
    for (const [slug, page] of pages) {
      // The snapshot leaves out the section text (it is in the index).
      const { html, headings, markdown, sections: _sections, ...rest } = page;
      const {
        html: otherHtml,
        headings: otherHeadings,
        markdown: otherMarkdown,
        sections: _otherSections,
        ...otherRest
      } = other.get(slug)!;
      assert.deepEqual(otherRest, rest, `${locale}/${slug}`);
      assert.equal(otherHtml(), html(), `${locale}/${slug}`);
      assert.deepEqual(otherHeadings(), headings(), `${locale}/${slug}`);
      assert.equal(otherMarkdown(), markdown(), `${locale}/${slug}: its Markdown twin`);
    }
  }
  assert.deepEqual(read.site.translations, single.translations);
  assert.deepEqual(read.messages, messages);
  assert.equal(read.site.paths.pathOf('ja', 'about'), '/ja/%E6%A6%82%E8%A6%81');
  assert.deepEqual(read.site.paths.find('de', 'about'), { key: 'about', canonical: false });
});

test('the search indexes made in several threads are byte for byte the one-thread ones, in the order of the locales', async () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const dir = join(ROOT_DIR, 'locales');
  const { joined, messages } = await compileBoth(dir, locales);
  assert.deepEqual(
    joined.indexes.map(({ locale, url, file }) => ({ locale, url, json: readFileSync(file!, 'utf8') })),
    makeIndexFiles(loadSite(dir, locales, 'en', messages)),
  );
  // Each comes with its compressed forms, made where it was made.
  for (const { file } of joined.indexes) {
    assert.deepEqual(brotliDecompressSync(readFileSync(`${file}.br`)), readFileSync(file!));
    assert.deepEqual(gunzipSync(readFileSync(`${file}.gz`)), readFileSync(file!));
  }
  // Per locale, its own index and then one per older docs version's (the default site ships 0.1).
  assert.deepEqual(
    joined.indexes.map((file) => file.locale),
    locales.flatMap((locale) => [locale, `${locale}@0.1`]),
  );
  // What was staged is gone once the build has it.
  joined.dispose();
  assert.equal(existsSync(joined.indexes[0]!.file!), false);
});

test('the compile frees a core for the bundles once: at once on this thread, and with threads only when the first has no locale left', async () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const dir = join(ROOT_DIR, 'locales');
  let here = 0;
  const inProcess = contentCompiler(dir, locales, { workersFrom: Number.POSITIVE_INFINITY }).compile('en', undefined, () => here++);
  assert.equal(here, 1, 'called as the compile starts: this thread is the only one at work');
  (await inProcess).dispose();
  assert.equal(here, 1, 'called once');
  let threaded = 0;
  const several = contentCompiler(dir, locales, { workersFrom: 0, cpus: 2 }).compile('en', undefined, () => threaded++);
  assert.equal(threaded, 0, 'not while both threads have locales to compile');
  (await several).dispose();
  assert.equal(threaded, 1, 'called once, when a thread ran out of locales');
});

test("both threads' problems are reported, each once", async () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({}, '[x](/nowhere-en)\n'), 'pages/a.md': makePage() },
    de: { 'pages/index.md': makePage({}, '[x](/nowhere-de)\n'), 'pages/a.md': makePage({ slug: 'x/y' }) },
  });
  await assert.rejects(compileBoth(dir, ['en', 'de']), (error: ContentError) => {
    assert.equal(error.name, 'ContentError');
    // en is compiled here, de in the worker: both links are reported; the slug problem, seen by both, once.
    assert.equal(error.problems.filter((problem) => problem.includes('/nowhere-en')).length, 1);
    assert.equal(error.problems.filter((problem) => problem.includes('/nowhere-de')).length, 1);
    assert.equal(error.problems.filter((problem) => problem.includes('slug "x/y"')).length, 1);
    return true;
  });
});

test('a build that fails leaves nothing staged, and one that succeeds leaves its files until they are taken', async () => {
  const stageIn = mkdtempSync(join(tmpdir(), 'polysite-stage-'));
  const broken = makeLocales({
    en: { 'pages/index.md': makePage({}, '[x](/nowhere)\n'), 'pages/a.md': makePage() },
    de: { 'pages/index.md': makePage(), 'pages/a.md': makePage() },
  });
  await assert.rejects(compileSite(broken, ['en', 'de'], 'en', { workersFrom: 0, cpus: 2, stageIn }));
  assert.deepEqual(readdirSync(stageIn), []);
  const good = makeLocales({ en: { 'pages/index.md': makePage() }, de: { 'pages/index.md': makePage() } });
  const compiled = await compileSite(good, ['en', 'de'], 'en', { workersFrom: 0, cpus: 2, stageIn });
  assert.equal(readdirSync(stageIn).length, 1);
  compiled.dispose();
  assert.deepEqual(readdirSync(stageIn), []);
});
