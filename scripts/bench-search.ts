// The search figures, measured, not tested: the `search` pass of `npm run bench`
// (`npm run bench -- --only search`), or `npx tsx scripts/bench-search.ts [--pages N]`
// alone. Prints the index size of each locale (gzip and brotli), the server's
// search throughput in req per CPU-second on two-word queries (the results page
// and its JSON), and typing-to-results in Chromium (input event to the list
// rendered, per keystroke). With `--pages N` it also generates a site of N pages
// (N/5 per locale) in a temporary folder, builds it there, and reports its index
// sizes, whether the box downloads the index or asks the server, and the bytes a
// visitor downloads while typing a query. Ends by itself and stops what it started.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ROOT_DIR } from '../src/server/config.ts';
import { readCompactIndex } from '../src/routes/search/compact-index.ts';
import { indexFileOf } from '../src/routes/search/index-writer.ts';
import { compactIndexPath } from '../src/server/site/search-indexes.ts';
import { cpuSeconds, fmt, hasTaskset, load, median, pinLoadGenerator, rss, run, type Server, startServer, stop } from './bench/harness.ts';
import { generateLargeSite } from './large-site.ts';
import { launchBrowser } from '../test/helpers/browser.ts';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOAD = { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1 };
const pagesArg = process.argv.indexOf('--pages');
const PAGES = pagesArg === -1 ? 0 : Number(process.argv[pagesArg + 1]);

/** The search pass of `npm run bench` (the default site's build in dist/), and of this script run alone. */
export async function searchPass(pages = 0) {
  const dist = join(ROOT_DIR, 'dist');
  console.log('\n## Search index per locale (the default site)\n');
  printIndexSizes(dist);

  console.log(`\n## Server search, ${CONNECTIONS} connections, ${SECONDS} s each${hasTaskset ? ', server on CPU 0, load on CPU 1' : ''}\n`);
  console.log('| render cache | query | URL | req/s | req per CPU-s | p50 ms | p99 ms | status |');
  console.log('|---|---|---|--:|--:|--:|--:|---|');
  for (const mode of ['off', 'on'] as const) {
    const server = await startServer({ RENDER_CACHE: mode }, '/en');
    try {
      const build = await buildOf(server);
      for (const [name, path] of [
        ['two words, results page (en)', '/en/search?q=render+cache'],
        ['two words, JSON (en)', `/_data/${build}/en/search.json?q=render+cache`],
        ['two words, results page (ja)', `/ja/search?q=${encodeURIComponent('設定 ファイル')}`],
        ['two words, JSON (ja)', `/_data/${build}/ja/search.json?q=${encodeURIComponent('設定 ファイル')}`],
        ['two words, results page (ar)', `/ar/search?q=${encodeURIComponent('الخادم المرحل')}`],
      ] as const) {
        // The JSON is never kept by the render cache: one run of it is enough.
        if (mode === 'on' && path.includes('.json')) continue;
        const row = await load(server, path, LOAD);
        console.log(
          `| ${mode} | ${name} | \`${path.slice(0, 48)}\` | ${fmt(row.rps)} | **${fmt(row.perCpu)}** | ${row.p50} | ${row.p99} | ${row.status} |`,
        );
      }
    } finally {
      await stop(server.child);
    }
  }

  const server = await startServer({}, '/en');
  try {
    console.log('\n## Typing to results in Chromium (input event to the list rendered)\n');
    for (const [locale, query] of [
      ['en', 'render cache headers'],
      ['ja', 'リポジトリ 設定'],
      ['ar', 'الخادم المرحل'],
    ] as const) {
      const { times } = await typing(server.url, locale, query);
      console.log(
        `- ${locale} "${query}": ${times.length} keystrokes, median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
      );
    }
    console.log('\n## Hostile queries and waiting behind a search (the default site)\n');
    await hostile(server);
  } finally {
    await stop(server.child);
  }

  if (pages > 0) await largeSite(pages);
}

function printIndexSizes(dist: string) {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { search: Record<string, string> };
  console.log('| locale | raw KB | gzip KB | brotli KB |');
  console.log('|---|--:|--:|--:|');
  for (const [locale, url] of Object.entries(manifest.search)) {
    // An index too large to download has no file (the server searches it): its file as the export makes it.
    const file = join(dist, 'client', url);
    const made = !existsSync(file);
    const bytes = made ? Buffer.concat([...indexFileOf(readCompactIndex(readFileSync(compactIndexPath(dist, url))))]) : readFileSync(file);
    console.log(
      `| ${locale}${made ? ' (no file: the server searches it)' : ''} | ${kb(bytes.length)} | **${kb(gzipSync(bytes, { level: 9 }).length)}** | ${kb(brotliCompressSync(bytes).length)} |`,
    );
  }
}

/** Types `query` one key at a time; each time is from the input event to the next change of the list. */
async function typing(url: string, locale: string, query: string, capture = false) {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${url}/${locale}/docs`);
    await page.waitForSelector('html[data-hydrated]');
    const before = await page.evaluate(() => performance.getEntriesByType('resource').length);
    await page.focus('input[name="q"]');
    await page.waitForTimeout(1000); // the search code and the index (or nothing, in server mode) arrive
    await page.evaluate(() => {
      const state = { started: 0, times: [] as number[] };
      (window as unknown as { bench: typeof state }).bench = state;
      const list = document.querySelector('[role="listbox"]')!;
      document.addEventListener('input', () => (state.started = performance.now()), true);
      new MutationObserver(() => {
        if (state.started) state.times.push(performance.now() - state.started);
        state.started = 0;
      }).observe(list, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    for (const char of query) {
      await page.keyboard.type(char);
      await page.waitForTimeout(capture ? 400 : 150);
    }
    const times = await page.evaluate(() => (window as unknown as { bench: { times: number[] } }).bench.times);
    // Everything fetched from the first focus on, as it went over the wire.
    const transferred = await page.evaluate(
      (from) =>
        performance
          .getEntriesByType('resource')
          .slice(from)
          .map((entry) => ({ name: entry.name, bytes: (entry as PerformanceResourceTiming).transferSize })),
      before,
    );
    return { times, transferred };
  } finally {
    await browser.close();
  }
}

/** A generated site of `pages` pages, built in a temporary folder: index sizes, mode, bytes while typing, JSON throughput. */
async function largeSite(pages: number) {
  const perLocale = Math.floor(pages / readdirSync(join(ROOT_DIR, 'locales')).length);
  const localesDir = generateLargeSite(join(ROOT_DIR, 'locales'), perLocale);
  const distDir = mkdtempSync(join(tmpdir(), 'polysite-search-dist-'));
  try {
    const started = performance.now();
    run('npm', ['run', '--silent', 'build'], { LOCALES_DIR: localesDir, DIST_DIR: distDir }, 'ignore');
    console.log(
      `\n## A generated site of ${pages.toLocaleString('en')} pages (${perLocale.toLocaleString('en')} per locale), built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    printIndexSizes(distDir);
    const server = await startServer({ LOCALES_DIR: localesDir, DIST_DIR: distDir }, '/en/docs');
    try {
      const html = await (await fetch(`${server.url}/en`)).text();
      const search = JSON.parse(/"search":(\{[^}]*\})/.exec(html.replace(/\\u0026/g, '&'))?.[1] ?? '{}');
      console.log(`\nindexes the browser downloads: ${JSON.stringify(search)} (null: the box asks the server)`);
      const { times, transferred } = await typing(server.url, 'en', 'render cache headers');
      const total = transferred.reduce((sum, entry) => sum + entry.bytes, 0);
      console.log(
        `typing "render cache headers": ${transferred.length} requests, ${kb(total)} KB over the wire in all (search code, JSON answers); median input-to-list ${median(times).toFixed(1)} ms`,
      );
      const build = await buildOf(server);
      const row = await load(server, `/_data/${build}/en/search.json?q=render+cache`, LOAD);
      console.log(
        `server search, two words, JSON: **${fmt(row.perCpu)}** req per CPU-s (${fmt(row.rps)} req/s, p99 ${row.p99} ms, ${row.status})`,
      );
      console.log('\n### Every page once, one search in every locale, hostile queries, waiting behind a search\n');
      await everyPage(server);
      await hostile(server);
      console.log(`\nRSS after every page, a search in every locale and the hostile queries: **${rss(server.child.pid!).toFixed(0)} MB**`);
    } finally {
      await stop(server.child);
    }
  } finally {
    rmSync(localesDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  }
}

/** Slow queries one can construct: many common words, a short prefix, letters that decompose into many words. */
const HOSTILE: [string, string][] = [
  ['a + U+FE70 a x127', `a${'\u{FE70}a'.repeat(127)}`],
  ['U+FDFA x256', '\u{FDFA}'.repeat(256)],
  ['11 common words + prefix "th"', 'the a of and to in is it for on with th'],
  ['ja: one kana as a prefix', 'の'],
  ['ar: a two-letter prefix', 'ال'],
];

/**
 * Each hostile query, first in each locale it names (en unless ja/ar), as distinct queries
 * (a counter word added, so no answer is kept): the server's CPU per request; then a cached
 * page asked while the query runs, and how long it waited.
 */
export async function hostile(server: Server) {
  const build = await buildOf(server);
  const pid = server.child.pid!;
  console.log('| query | CPU ms per request (median of 5, distinct) | page asked during it, ms |');
  console.log('|---|--:|--:|');
  await fetch(`${server.url}/en/docs`).then((r) => r.text());
  for (const [name, query] of HOSTILE) {
    const locale = name.startsWith('ja') ? 'ja' : name.startsWith('ar') ? 'ar' : 'en';
    const cpu: number[] = [];
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const q = encodeURIComponent(`${query} zq${i}x${Date.now() % 100000}`);
      const path = i % 2 ? `/_data/${build}/${locale}/search.json?q=${q}` : `/${locale}/search?q=${q}`;
      const before = cpuSeconds(pid);
      const searching = fetch(`${server.url}${path}`).then((r) => r.text());
      const started = performance.now();
      await fetch(`${server.url}/en/docs`).then((r) => r.text());
      waits.push(performance.now() - started);
      await searching;
      cpu.push((cpuSeconds(pid) - before) * 1000);
    }
    console.log(`| ${name} | **${median(cpu).toFixed(1)}** | ${Math.max(...waits).toFixed(1)} max |`);
  }
}

/** Every page of the site once (the sitemap's), then one search in every locale: the state the RSS target is quoted after. */
export async function everyPage(server: Server) {
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>[^<]*?(\/[a-z]{2}[^<]*)<\/loc>/g)].map((match) => match[1]!);
  for (let i = 0; i < paths.length; i += 16)
    await Promise.all(paths.slice(i, i + 16).map((path) => fetch(`${server.url}${path}`).then((r) => r.arrayBuffer())));
  const waits: number[] = [];
  for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
    const searching = fetch(`${server.url}/${locale}/search?q=cache`).then((r) => r.text());
    const started = performance.now();
    await fetch(`${server.url}/en/docs`).then((r) => r.text());
    waits.push(performance.now() - started);
    await searching;
  }
  console.log(
    `${paths.length} pages once; a page asked during each locale's first search waited at most **${Math.max(...waits).toFixed(1)} ms**`,
  );
}

async function buildOf(server: Server): Promise<string> {
  return ((await (await fetch(`${server.url}/healthz`)).json()) as { build: string }).build;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

if (import.meta.url === `file://${process.argv[1]}`) {
  pinLoadGenerator();
  run('npm', ['run', 'build', '--silent'], {}, 'ignore');
  searchPass(PAGES).catch((error) => {
    console.error(`bench-search failed: ${error.message}`);
    process.exit(1);
  });
}
