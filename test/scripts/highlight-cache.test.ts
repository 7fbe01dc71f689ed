import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ROOT_DIR } from '../../src/server/config.ts';
import { makeLocales, makePage } from '../helpers/content.ts';

// Highlighted code blocks are kept on disk between builds (highlight-cache.ts), in one
// pack per site and locale. Each build here is a process of its own, as `npm run build`
// is, so nothing of the last one is in memory: what it reuses, it read from the cache.

/** The site's content compiled as the build does (scripts/build-content.ts), with the cache in `cacheDir` (or none): every page's HTML. */
function build(localesDir: string, cacheDir: string | null): Record<string, string> {
  const program = `
    import { mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
    import { compileSite } from './scripts/build-content.ts';
    import { readSnapshot } from './src/server/content/snapshot.ts';
    const [dir, cacheDir] = [process.env.LOCALES, process.env.CACHE || null];
    const compiled = await compileSite(dir, ['en'], 'en', { cacheDir });
    const dist = mkdtempSync(join(tmpdir(), 'polysite-cache-dist-'));
    compiled.writeSnapshot(dist, 'fp');
    const pages = readSnapshot(dist, 'fp').site.pages.get('en');
    process.stdout.write(JSON.stringify(Object.fromEntries([...pages].map(([slug, page]) => [slug, page.html()]))));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: ROOT_DIR,
    env: { ...process.env, LOCALES: localesDir, CACHE: cacheDir ?? '' },
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

function cachedFiles(cacheDir: string): string[] {
  return readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each pack's lines after its header: one per block, its key, a tab, its lines of HTML as JSON. */
function packLines(file: string): string[] {
  return gunzipSync(readFileSync(file)).toString().split('\n').slice(1);
}

/** Replaces every cached block's HTML by a marker, so a build that shows the marker read it from the cache. */
function markCache(cacheDir: string): void {
  for (const file of cachedFiles(cacheDir)) {
    const [header, ...blocks] = gunzipSync(readFileSync(file)).toString().split('\n');
    const marked = blocks.map(
      (line) => `${line.slice(0, line.indexOf('\t'))}\t${JSON.stringify(['<span class="tk-keyword">FROM-CACHE</span>'])}`,
    );
    writeFileSync(file, gzipSync([header, ...marked].join('\n')));
  }
}

const siteWith = (code: string) =>
  makeLocales({
    en: {
      'pages/index.md': makePage({}, `Intro.\n\n${code}\n\nAnd some shell:\n\n\`\`\`sh\nnpm ci\n\`\`\`\n`),
      'pages/other.md': makePage({ title: 'Other' }, '```ts\nexport const other = 2;\n```\n'),
    },
  });

const TS_BLOCK = '```ts\nconst answer: number = 42; // why\n```';

test('a second build reads the highlighted blocks from the cache, and the pages are the same as without it', () => {
  const site = siteWith(TS_BLOCK);
  const cacheDir = mkdtempSync(join(tmpdir(), 'polysite-highlight-cache-'));
  const uncached = build(site, null);
  assert.match(uncached['']!, /<span class="tk-comment">\/\/ why<\/span>/);
  const cold = build(site, cacheDir);
  const packs = cachedFiles(cacheDir);
  assert.equal(packs.length, 1, 'one pack for the one locale');
  assert.equal(packLines(packs[0]!).length, 3, 'a line per block: the two TypeScript blocks and the shell one');
  const warm = build(site, cacheDir);
  assert.deepEqual(cold, uncached);
  assert.deepEqual(warm, uncached);

  markCache(cacheDir);
  const marked = build(site, cacheDir);
  assert.match(marked['']!, /FROM-CACHE/);
  assert.match(marked.other!, /FROM-CACHE/);
  assert.doesNotMatch(marked['']!, /tk-comment/);
  rmSync(cacheDir, { recursive: true });
});

test('a block whose code or language changed is highlighted anew, the blocks that did not change still come from the cache', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'polysite-highlight-cache-'));
  build(siteWith(TS_BLOCK), cacheDir);
  markCache(cacheDir);

  const changedCode = build(siteWith('```ts\nconst answer: number = 43; // why\n```'), cacheDir);
  assert.match(changedCode['']!, /<span class="tk-constant">43<\/span>/);
  assert.match(changedCode.other!, /FROM-CACHE/, 'the other page, unchanged, is read from the cache');
  assert.equal(packLines(cachedFiles(cacheDir)[0]!).length, 4, 'the pack keeps the block no page uses now beside the new one');

  const changedLanguage = build(siteWith('```js\nconst answer: number = 42; // why\n```'), cacheDir);
  assert.match(changedLanguage['']!, /<span class="tk-comment">\/\/ why<\/span>/);
  assert.doesNotMatch(changedLanguage['']!.split('And some shell')[0]!, /FROM-CACHE/);
  rmSync(cacheDir, { recursive: true });
});

test('options that do not change the highlighted lines (marks, a title, line numbers, a diff notation) reuse the cached lines and still apply', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'polysite-highlight-cache-'));
  const withOptions = siteWith('```ts {1} title="a.ts" showLineNumbers\nconst answer: number = 42; // why\n```');
  build(siteWith(TS_BLOCK), cacheDir);
  assert.deepEqual(build(withOptions, cacheDir), build(withOptions, null));

  markCache(cacheDir);
  const reused = build(withOptions, cacheDir)['']!;
  assert.match(reused, /<pre class="code line-numbers"[^>]*><code><span class="line marked"><span class="tk-keyword">FROM-CACHE<\/span>/);
  assert.match(reused, /<span class="code-title">a\.ts<\/span>/);
  // A diff notation is taken off the line before it is highlighted.
  const notation = build(siteWith('```ts\nconst answer: number = 42; // why // [!code ++]\n```'), cacheDir)['']!;
  assert.match(notation, /<code><span class="line add"><span class="tk-keyword">FROM-CACHE<\/span>/);
  rmSync(cacheDir, { recursive: true });
});
