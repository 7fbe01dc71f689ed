import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompiledContent, compileSite, type ContentCache } from '../../scripts/build-content.ts';
import { compilerCodeHash, compilerSourceFiles, storedCompilerCodeHash } from '../../scripts/compiler-code.ts';
import { readSnapshot } from '../../src/server/content/snapshot.ts';
import { openTermsCache } from '../../scripts/terms-cache.ts';
import { termsOf } from '../../src/i18n/search-text.ts';
import { gunzipSync } from 'node:zlib';
import { MESSAGES, makeLocales, makePage } from '../helpers/content.ts';

// The build keeps compiled pages and search indexes between builds (page-cache.ts,
// index-cache.ts). What it must never do is serve a stale page: each test builds, changes
// one input, builds again with the cache, and compares with a build without it.

const LOCALES = ['en', 'de'];
const svg = (width: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="10"></svg>`;

function makeSiteTree(): string {
  return makeLocales({
    en: {
      'pages/index.md': makePage({ title: 'Home' }, 'Read the [guide](/docs/guide).\n\n![Logo](/images/logo.svg)\n'),
      'pages/docs/guide.md': makePage({ title: 'Guide' }, '## Install\n\nSee [setup](./setup#steps).\n\n```js\nconst a = 1;\n```\n'),
      'pages/docs/setup.md': makePage({ title: 'Setup' }, '## Steps\n\nRun it.\n'),
      'pages/about.md': makePage({ title: 'About' }, 'Who we are.\n'),
      'images/logo.svg': svg(10),
    },
    de: {
      'pages/index.md': makePage({ title: 'Start' }, 'Lies die [Anleitung](/docs/guide).\n'),
      'pages/docs/guide.md': makePage({ title: 'Anleitung', slug: 'anleitung' }, '## Installieren\n\nText.\n'),
    },
  });
}

const newCache = (code = 'code-1'): ContentCache => ({ dir: mkdtempSync(join(tmpdir(), 'polysite-cache-')), code });

/** The built site as bytes: every page's HTML, headings and Markdown twin per locale, and every index file. */
async function built(
  dir: string,
  cache: ContentCache | null,
  options: { workersFrom?: number; cpus?: number; maxDownloadBytes?: number; defaultLocale?: string } = {},
) {
  const { defaultLocale = 'en', ...compile } = options;
  const compiled = await compileSite(dir, LOCALES, defaultLocale, { contentCache: cache, ...compile });
  try {
    return { output: outputOf(compiled), reused: compiled.reusedPages, locales: compiled.reusedLocales };
  } finally {
    compiled.dispose();
  }
}

function outputOf(compiled: CompiledContent) {
  const dist = mkdtempSync(join(tmpdir(), 'polysite-cache-dist-'));
  compiled.writeSnapshot(dist, 'fp');
  const { site, messages } = readSnapshot(dist, 'fp')!;
  const pages = [...site.pages].flatMap(([locale, pages]) =>
    [...pages].map(([, { html, headings, markdown, sections: _sections, ...rest }]) => ({
      locale,
      ...rest,
      html: html(),
      headings: headings(),
      markdown: markdown(),
    })),
  );
  // An index too large to download has its compact form alone.
  const indexes = compiled.indexes.map(({ locale, url, file, compact }) => ({
    locale,
    url,
    json: file && readFileSync(file, 'utf8'),
    br: file && readFileSync(`${file}.br`),
    gz: file && readFileSync(`${file}.gz`),
    compact: readFileSync(compact),
  }));
  // The site's translations, versions and messages, as the snapshot's header holds them.
  const whole = JSON.stringify([[...site.translations], site.versions, [...messages]]);
  return { pages, indexes, whole };
}

const htmlOf = (output: Awaited<ReturnType<typeof built>>['output'], locale: string, key: string) =>
  output.pages.find((page) => page.locale === locale && page.key === key)!.html;

/** Builds with the cache, changes the site, and checks the cached rebuild is the uncached one; returns both. */
async function afterChange(change: (dir: string) => void, code = 'code-1') {
  const dir = makeSiteTree();
  const cache = newCache();
  const before = await built(dir, cache);
  change(dir);
  const again = await built(dir, { ...cache, code });
  const fresh = await built(dir, null);
  assert.deepEqual(again.output, fresh.output, 'the cached rebuild is the build without a cache');
  return { before, again, fresh, total: fresh.output.pages.length };
}

test('a rebuild with nothing changed takes every locale whole from the cache and makes the same pages and index files byte for byte', async () => {
  const { before, again, fresh, total } = await afterChange(() => {});
  assert.equal(before.reused, 0);
  assert.deepEqual(before.locales, []);
  assert.equal(again.reused, total);
  assert.deepEqual(again.locales, LOCALES);
  assert.deepEqual(before.output, fresh.output, 'the first, cache-filling build is the build without a cache');
});

test("a page kept under another default locale is compiled again: what the default locale's pages carry (their source fingerprint) differs", async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  await built(dir, cache);
  const again = await built(dir, cache, { defaultLocale: 'de' });
  const fresh = await built(dir, null, { defaultLocale: 'de' });
  assert.deepEqual(again.output, fresh.output, 'the cached rebuild is the build without a cache');
  const guide = fresh.output.pages.find((page) => page.locale === 'de' && page.key === 'docs/guide')!;
  assert.match(guide.fingerprint, /^[0-9a-f]{16}$/, "the new default locale's own page has its source fingerprint");
});

test('a rebuild in worker threads reuses the pages each thread kept, without writing a pack again, and makes the same output', async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  const first = await built(dir, cache, { workersFrom: 0, cpus: 2 });
  const packs = () => readdirSync(join(cache.dir, 'pages')).map((name) => statSync(join(cache.dir, 'pages', name)).ino);
  const written = packs();
  // A file every locale reads (an image no page shows): no locale is taken whole, every page is.
  writeFileSync(join(dir, 'en/images/unused.svg'), svg(5));
  const second = await built(dir, cache, { workersFrom: 0, cpus: 2 });
  assert.equal(first.reused, 0);
  assert.deepEqual(second.locales, []);
  assert.equal(second.reused, second.output.pages.length);
  assert.deepEqual(packs(), written, 'a pack whose every entry was used as it was is not written again');
  assert.deepEqual(second.output, (await built(dir, null)).output);
});

test('an edited page is compiled again, and only it (and its fallback copies)', async () => {
  const { again, fresh, total } = await afterChange((dir) =>
    writeFileSync(join(dir, 'en/pages/docs/setup.md'), makePage({ title: 'Setup' }, '## Steps\n\nRun it twice.\n')),
  );
  assert.match(htmlOf(fresh.output, 'en', 'docs/setup'), /Run it twice/);
  // en's page and de's fallback of it: de serves it, so de is not taken whole.
  assert.equal(again.reused, total - 2);
  assert.deepEqual(again.locales, []);
});

test('a page edited in one locale rebuilds that locale alone; the others are taken whole', async () => {
  const inDe = await afterChange((dir) =>
    writeFileSync(
      join(dir, 'de/pages/docs/guide.md'),
      makePage({ title: 'Anleitung', slug: 'anleitung' }, '## Installieren\n\nNeuer Text.\n'),
    ),
  );
  assert.match(htmlOf(inDe.again.output, 'de', 'docs/guide'), /Neuer Text/);
  assert.deepEqual(inDe.again.locales, ['en']);
  // de has its own guide: the text of en's is none of de's business, only its front matter.
  const inEn = await afterChange((dir) =>
    writeFileSync(join(dir, 'en/pages/docs/guide.md'), makePage({ title: 'Guide' }, '## Install\n\nSee [setup](./setup#steps), now.\n')),
  );
  assert.match(htmlOf(inEn.again.output, 'en', 'docs/guide'), /now\./);
  assert.deepEqual(inEn.again.locales, ['de']);
  assert.ok(inEn.again.output.indexes.some((index) => index.locale === 'en' && index.json?.includes('now')));
});

test('a changed title is in the rebuilt page of every locale that serves it', async () => {
  const { again } = await afterChange((dir) =>
    writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }, 'Who we are.\n')),
  );
  for (const locale of LOCALES) {
    assert.equal(again.output.pages.find((page) => page.locale === locale && page.key === 'about')?.title, 'About us');
  }
});

test('a deleted page is gone after the rebuild, and a deleted translation is served from the default locale', async () => {
  const { again } = await afterChange((dir) => {
    rmSync(join(dir, 'en/pages/about.md'));
    rmSync(join(dir, 'de/pages/docs/guide.md'));
  });
  assert.ok(!again.output.pages.some((page) => page.key === 'about'));
  assert.equal(again.output.pages.find((page) => page.locale === 'de' && page.key === 'docs/guide')?.contentLocale, 'en');
});

test('a locale kept whole whose staged part was written over in place is built again', async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  const fresh = await built(dir, null);
  await built(dir, cache);
  for (const entry of readdirSync(join(cache.dir, 'locales'), { withFileTypes: true })) {
    if (entry.isDirectory()) writeFileSync(join(cache.dir, 'locales', entry.name, 'part.bin'), 'spoiled');
  }
  const again = await built(dir, cache);
  assert.deepEqual(again.locales, []);
  assert.deepEqual(again.output, fresh.output);
});

test('a warning is said again when its locale is taken whole', async (t) => {
  const dir = makeSiteTree();
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About' }, '```nosuchlanguage\nx\n```\n'));
  const cache = newCache();
  const warned = t.mock.method(console, 'warn', () => {});
  const said = () => warned.mock.calls.map((call) => String(call.arguments[0])).filter((message) => /nosuchlanguage/.test(message));
  await built(dir, cache);
  const first = said();
  assert.equal(first.length, 1);
  warned.mock.resetCalls();
  const again = await built(dir, cache);
  assert.deepEqual(again.locales, LOCALES);
  assert.deepEqual(said(), first);
});

test('a linked page whose slug changed recompiles the page that links to it', async () => {
  const { before, again } = await afterChange((dir) =>
    writeFileSync(join(dir, 'de/pages/docs/guide.md'), makePage({ title: 'Anleitung', slug: 'handbuch' }, '## Installieren\n\nText.\n')),
  );
  assert.match(htmlOf(before.output, 'de', ''), /href="\/de\/docs\/anleitung"/);
  assert.match(htmlOf(again.output, 'de', ''), /href="\/de\/docs\/handbuch"/);
});

test('a heading removed from a linked page is reported at the page that links to it, from the cache too', async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  await built(dir, cache);
  writeFileSync(join(dir, 'en/pages/docs/setup.md'), makePage({ title: 'Setup' }, '## Other\n\nRun it.\n'));
  await assert.rejects(built(dir, cache), (error: Error & { problems?: string[] }) =>
    (error.problems ?? []).some((problem) => /guide\.md:\d+: .*#steps/.test(problem)),
  );
});

test('a changed message (a label in the compiled HTML) is seen', async () => {
  const { before, again } = await afterChange((dir) =>
    writeFileSync(join(dir, 'en/messages.json'), JSON.stringify({ ...MESSAGES, 'content.copyCode': 'Copy this code' })),
  );
  assert.doesNotMatch(htmlOf(before.output, 'en', 'docs/guide'), /Copy this code/);
  assert.match(htmlOf(again.output, 'en', 'docs/guide'), /Copy this code/);
});

test('an image whose bytes changed is shown by its new asset name and size', async () => {
  const { before, again } = await afterChange((dir) => writeFileSync(join(dir, 'en/images/logo.svg'), svg(20)));
  assert.notEqual(htmlOf(again.output, 'en', ''), htmlOf(before.output, 'en', ''));
  assert.match(htmlOf(again.output, 'en', ''), /width="20"/);
});

test('a change to the compiler code (its hash in the key) compiles every page again', async () => {
  const { again } = await afterChange(() => {}, 'code-2');
  assert.equal(again.reused, 0);
});

test('a cut-off, corrupt or foreign cache is ignored: the pages are compiled and the output is right', async () => {
  const dir = makeSiteTree();
  const fresh = await built(dir, null);
  for (const spoil of [
    (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 40)),
    (file: string) => writeFileSync(file, 'not gzip at all'),
  ]) {
    const cache = newCache();
    await built(dir, cache);
    const packs = readdirSync(join(cache.dir, 'pages')).map((name) => join(cache.dir, 'pages', name));
    // One per serving locale.
    assert.equal(packs.length, LOCALES.length);
    for (const pack of packs) spoil(pack);
    // And every kept text's terms.
    for (const name of readdirSync(join(cache.dir, 'terms'))) spoil(join(cache.dir, 'terms', name));
    // Every index file spoiled too: an entry whose bytes are not those it recorded is made again.
    for (const file of readdirSync(join(cache.dir, 'indexes'), { recursive: true })) {
      if (String(file).endsWith('.json') && !String(file).endsWith('stamp.json'))
        writeFileSync(join(cache.dir, 'indexes', String(file)), '{"spoiled":true}');
    }
    const again = await built(dir, cache);
    assert.equal(again.reused, 0);
    assert.deepEqual(again.output, fresh.output);
  }
});

test('an index too large to download is kept with its compact form alone, and a larger bound makes its browser forms again', async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  const serverOnly = await built(dir, cache, { maxDownloadBytes: 0 });
  assert.ok(serverOnly.output.indexes.every((index) => index.json === null && index.compact.length > 0));
  const again = await built(dir, cache, { maxDownloadBytes: 0 });
  assert.deepEqual(again.locales, LOCALES);
  assert.deepEqual(again.output, serverOnly.output);
  assert.deepEqual(serverOnly.output, (await built(dir, null, { maxDownloadBytes: 0 })).output);
  // The same pages with every index downloadable: nothing kept under the smaller bound is taken for it.
  const downloadable = await built(dir, cache);
  assert.ok(downloadable.output.indexes.every((index) => index.json !== null));
  assert.deepEqual(downloadable.output, (await built(dir, null)).output);
  // The compact form (what the server searches) is the same either way; the name differs.
  assert.deepEqual(
    serverOnly.output.indexes.map((index) => index.compact),
    downloadable.output.indexes.map((index) => index.compact),
  );
});

test('an index file linked from the cache stays whole when the cache is dropped, and one written over in place is made again', async () => {
  const dir = makeSiteTree();
  const fresh = await built(dir, null);
  const cache = newCache();
  await built(dir, cache);
  // The second build links its index files out of the cache; dropping the cache leaves them whole.
  const linked = await compileSite(dir, LOCALES, 'en', { contentCache: cache });
  try {
    assert.equal(linked.reusedPages, fresh.output.pages.length);
    rmSync(join(cache.dir, 'indexes'), { recursive: true, force: true });
    assert.deepEqual(outputOf(linked), fresh.output);
  } finally {
    linked.dispose();
  }
  // Written over in place, a staged index file changes the cached one it is linked to: that entry is not used again.
  await built(dir, cache);
  const spoiled = await compileSite(dir, LOCALES, 'en', { contentCache: cache });
  try {
    for (const { file, compact } of spoiled.indexes) {
      writeFileSync(file!, '{"spoiled":true}');
      writeFileSync(compact, 'spoiled');
    }
  } finally {
    spoiled.dispose();
  }
  assert.deepEqual((await built(dir, cache)).output, fresh.output);
});

test('the compiler code hash covers the Markdown compiler, the index writer and the installed packages', () => {
  const files = compilerSourceFiles();
  for (const file of ['src/server/content/site.ts', 'src/server/content/markdown.ts', 'src/routes/search/index-writer.ts']) {
    assert.ok(files.includes(file), file);
  }
  assert.match(compilerCodeHash(), /^[\w-]{43}$/);
});

test('the build takes the compiler code hash from its memo while every file and folder it stamped is unchanged', () => {
  const memoFile = join(mkdtempSync(join(tmpdir(), 'polysite-code-')), 'compiler-code.json');
  const hash = compilerCodeHash();
  assert.equal(storedCompilerCodeHash(memoFile), hash);
  const memo = JSON.parse(readFileSync(memoFile, 'utf8')) as { stamps: [string, string][]; hash: string };
  const stamped = memo.stamps.map(([path]) => path);
  for (const path of ['scripts/build-content.ts', 'src/server/content/site.ts', 'package-lock.json', 'src/server/content'])
    assert.ok(stamped.includes(path), path);
  // The memo's hash is what the next build uses, as long as the stamps hold...
  writeFileSync(memoFile, JSON.stringify({ ...memo, hash: 'remembered' }));
  assert.equal(storedCompilerCodeHash(memoFile), 'remembered');
  // ...and a stamp that no longer holds (a file changed since) makes it again.
  const stale = memo.stamps.map(([path, stamp]): [string, string] => [path, path === 'src/server/content/site.ts' ? 'changed' : stamp]);
  writeFileSync(memoFile, JSON.stringify({ ...memo, stamps: stale, hash: 'remembered' }));
  assert.equal(storedCompilerCodeHash(memoFile), hash);
  assert.equal((JSON.parse(readFileSync(memoFile, 'utf8')) as { hash: string }).hash, hash);
});

test('`--no-cache` or POLYSITE_NO_CACHE turns the build caches off', async () => {
  const { cacheWanted } = await import('../../scripts/build.ts');
  assert.equal(cacheWanted([], {}), true);
  assert.equal(cacheWanted(['--no-cache'], {}), false);
  assert.equal(cacheWanted([], { POLYSITE_NO_CACHE: '1' }), false);
  assert.equal(cacheWanted([], { POLYSITE_NO_CACHE: '0' }), true);
});

test("the terms cache gives termsOf's terms, from its pack in the next build, and ignores a pack of other code", () => {
  const dir = mkdtempSync(join(tmpdir(), 'polysite-terms-'));
  const texts = ['Installing the server', 'サーバーをインストールする', 'Die Übersetzungen der Seiten', ''];
  const first = openTermsCache(dir, '/site', 'en', 'en', 'code-1');
  for (const text of texts) assert.deepEqual(first.terms(text, 'en'), termsOf(text, 'en'));
  first.save();
  const [pack] = readdirSync(dir);
  const kept = readFileSync(join(dir, pack!));
  // Every text was in the pack: it is not written again.
  const again = openTermsCache(dir, '/site', 'en', 'en', 'code-1');
  for (const text of texts) assert.deepEqual(again.terms(text, 'en'), termsOf(text, 'en'));
  again.save();
  assert.deepEqual(readFileSync(join(dir, pack!)), kept);
  assert.match(gunzipSync(kept).toString(), /\tinstal the server\n/);
  // Another code's pack is not read: a text it lacks is made, and the pack written anew.
  const other = openTermsCache(dir, '/site', 'en', 'en', 'code-2');
  assert.deepEqual(other.terms(texts[0]!, 'en'), termsOf(texts[0]!, 'en'));
  other.save();
  assert.notDeepEqual(readFileSync(join(dir, pack!)), kept);
});

test('front matter parsed in one build is read back in the next, and a mistake in it is said in every build', async () => {
  const dir = makeSiteTree();
  const cache = newCache();
  await built(dir, cache);
  assert.equal(readdirSync(join(cache.dir, 'front-matter')).length, LOCALES.length);
  writeFileSync(join(dir, 'en/pages/about.md'), '---\ntitle: "About\n---\nWho we are.\n');
  for (let build = 0; build < 2; build++) {
    await assert.rejects(built(dir, cache), (error: Error & { problems?: string[] }) =>
      (error.problems ?? []).some((problem) => /about\.md:2:\d+: front matter is not valid YAML/.test(problem)),
    );
  }
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About again' }, 'Who we are.\n'));
  const again = await built(dir, cache);
  assert.deepEqual(again.output, (await built(dir, null)).output);
  assert.equal(again.output.pages.find((page) => page.locale === 'en' && page.key === 'about')?.title, 'About again');
});

test('a translation made a draft is no translation after the rebuild, in the site its default locale describes too', async () => {
  const { before, again } = await afterChange((dir) =>
    writeFileSync(
      join(dir, 'de/pages/docs/guide.md'),
      makePage({ title: 'Anleitung', slug: 'anleitung', draft: 'true' }, 'Text.\n').replace('"true"', 'true'),
    ),
  );
  assert.match(before.output.whole, /\["docs\/guide",\["en","de"\]\]/);
  assert.match(again.output.whole, /\["docs\/guide",\["en"\]\]/);
  assert.equal(again.output.pages.find((page) => page.locale === 'de' && page.key === 'docs/guide')?.contentLocale, 'en');
});
