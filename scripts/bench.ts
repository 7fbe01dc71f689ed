/**
 * `npm run bench`: the production build under load on loopback. Three passes:
 * - pages: the render cache on and off, one table (req/s, req per CPU-second of
 *   the server, p50/p99, bytes per response, errors, peak RSS, cold start) and a
 *   memory check;
 * - monitoring: the same server with SENTRY_DSN set and unset, paired in one run
 *   (cached and uncached req per CPU-s, peak RSS, cold start, and the deltas).
 *   The DSN points at a loopback stand-in in this process that accepts envelopes:
 *   the server never talks to a real Sentry.
 * - search (scripts/bench-search.ts): index sizes, server search throughput,
 *   typing to results in Chromium;
 * - export (scripts/bench/export-pass.ts): `npm run export` of the default site and
 *   of a generated 10,000-page site: time, files, bytes and peak memory;
 * - lighthouse (scripts/bench/lighthouse-pass.ts): Lighthouse's scores, LCP, TBT and CLS
 *   of every screen type in en, ja and ar (median of 3; installs Lighthouse on first use);
 * - large site (`--pages N`, instead of the three above): a generated site of N
 *   pages (N/5 per locale) built into a temporary folder, its caches in another (empty at
 *   first: the first build is cold on every run): build time and peak memory, cold, then
 *   warm with nothing changed, then after one page's text changed (the content cache),
 *   cold start, idle RSS, RSS after every page was requested once (HTML and data) and
 *   that crawl's throughput, cached and uncached req per CPU-s on one of its pages
 *   beside the default site's, and the weight of the same page in both. With
 *   `--shape flat`, the shape of real docs trees instead (large-site.ts's
 *   generateFlatSite): N pages in the default locale in two flat sections (5,000 and
 *   2,000 at N = 7,000), the other locales translating 6-27 % of them; its page in the
 *   large section is compared with a page of a small one, its frame (document and page
 *   data less its content) is weighed, and the build is exported.
 *   With `--versions V` (scripts/bench/versions-pass.ts): the balanced site with V versions
 *   of its docs, against it unversioned.
 * - dev (scripts/bench/dev-pass.ts): `npm run dev`, from an atomic save to the new
 *   text in Chromium, on the default site and on a generated 10,000-page site;
 * `--only pages`, `--only monitoring`, `--only search`, `--only export`, `--only dev` or `--only lighthouse`
 * runs one pass. Ends by itself (the Lighthouse pass alone takes some minutes) and stops what it started. Not part of `npm test`: a benchmark,
 * not a timed test. Peers (Next.js, bare React...): `npm run bench:peers`.
 *
 * The server is pinned to CPU 0 and this process (the load generator) to CPU 1
 * when `taskset` exists, so the two do not compete.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT_DIR, loadConfig } from '../src/server/config.ts';
import {
  cpuSeconds,
  crawl,
  fmt,
  freshCacheDir,
  hasTaskset,
  hostLoopMs,
  load,
  median,
  peakRss,
  pinLoadGenerator,
  rss,
  run,
  type Server,
  startServer,
  statusCounts,
  stop,
  timedBuild,
} from './bench/harness.ts';
import { FLAT_PAGES, FLAT_SMALL_SECTION, generatedPage, generateFlatSite, generateLargeSite } from './large-site.ts';
import { loadInTurns, type Turns } from './bench/turns.ts';
import { exportOnce } from './bench/export-pass.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const LOAD = { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS };
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 300_000);

type Row = {
  mode: string;
  name: string;
  path: string;
  rps: number;
  perCpu: number;
  p50: number;
  p99: number;
  bytes: number;
  errors: number;
  status: string;
  /** The server's peak RSS once this URL's load ended: where memory grows, if it does. */
  peakRssMb: number;
};

const PASSES = ['pages', 'monitoring', 'search', 'export', 'dev', 'lighthouse'] as const;
type Pass = (typeof PASSES)[number];
/** The page the monitoring pass loads, and every cold start waits for. */
// The German install guide, at its localized path (`/de/docs/guides/install` is a 308 to it).
const DOCS_PAGE = '/de/docs/anleitungen/installation';
/** Extra start-and-stop samples per monitoring setting, for a median cold start. */
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 3);

async function main() {
  const args = process.argv.slice(2);
  const pagesAt = args.indexOf('--pages');
  const largePages = pagesAt === -1 ? 0 : Number(args[pagesAt + 1]);
  if (pagesAt !== -1 && !(Number.isInteger(largePages) && largePages >= 100)) {
    console.error('bench: --pages takes a whole number of pages, 100 or more');
    process.exit(2);
  }
  const shapeAt = args.indexOf('--shape');
  const shape = shapeAt === -1 ? 'balanced' : args[shapeAt + 1];
  if (shape !== 'balanced' && shape !== 'flat') {
    console.error('bench: --shape takes balanced or flat');
    process.exit(2);
  }
  if (shapeAt !== -1 && !largePages) {
    console.error('bench: --shape goes with --pages N');
    process.exit(2);
  }
  const versionsAt = args.indexOf('--versions');
  const versions = versionsAt === -1 ? 1 : Number(args[versionsAt + 1]);
  if (versionsAt !== -1 && !(largePages && shapeAt === -1 && Number.isInteger(versions) && versions >= 2)) {
    console.error('bench: --versions takes a whole number, 2 or more, with --pages (and no --shape)');
    process.exit(2);
  }
  const passes = largePages ? [] : selectedPasses(args);
  if (!existsSync(join(ROOT_DIR, 'dist', 'manifest.json'))) run('npm', ['run', 'build']);
  pinLoadGenerator();
  const build = JSON.parse(readFileSync(join(ROOT_DIR, 'dist', 'manifest.json'), 'utf8')).build as string;
  console.log(
    `\npolysite bench: ${CONNECTIONS} connections, ${SECONDS} s per URL after ${WARMUP_SECONDS} s warm-up, Node ${process.version}${hasTaskset ? ', server on CPU 0, load on CPU 1' : ''}; host loop ${fmt(hostLoopMs())} ms (hostLoopMs: lower is a faster host)`,
  );
  if (passes.includes('pages')) await pagesPass(build);
  if (passes.includes('monitoring')) await monitoringPass();
  if (passes.includes('search')) await (await import('./bench-search.ts')).searchPass();
  if (passes.includes('export')) await (await import('./bench/export-pass.ts')).exportPass();
  if (passes.includes('dev')) await (await import('./bench/dev-pass.ts')).devPass();
  if (passes.includes('lighthouse')) await (await import('./bench/lighthouse-pass.ts')).lighthousePass();
  if (largePages && versions > 1) await (await import('./bench/versions-pass.ts')).versionsPass(largePages, versions);
  else if (largePages) await largeSitePass(largePages, shape);
  console.log(`\nhost loop at the end: ${fmt(hostLoopMs())} ms`);
}

/** Starts of the large site's server, besides the one that is then visited, whose median is its cold start. */
const LARGE_COLD_STARTS = 4;

/** Turns each of the default and the large site's servers takes in the same-page comparison. */
const LARGE_ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 12);

/** How many URLs the large-site pass requests at once when it visits every page. */
const VISIT_CONCURRENCY = 8;

/**
 * A generated site of `pages` pages next to the default one (the large-site targets:
 * build <= 20 s, cold start <= 1 s, idle RSS <= 150 MB, RSS after every page
 * <= 250 MB, throughput within 10 % of the default site's, a docs page within
 * 20 % of its weight in the default site).
 */
async function largeSitePass(pages: number, shape: 'balanced' | 'flat') {
  const locales = readdirSync(join(ROOT_DIR, 'locales')).length;
  const flat = shape === 'flat';
  const localesDir = flat
    ? generateFlatSite(join(ROOT_DIR, 'locales'), loadConfig({ PORT: '0' }).defaultLocale, pages / FLAT_PAGES)
    : generateLargeSite(join(ROOT_DIR, 'locales'), Math.round(pages / locales));
  const distDir = mkdtempSync(join(tmpdir(), 'polysite-large-dist-'));
  const env = { LOCALES_DIR: localesDir, DIST_DIR: distDir };
  // The builds' caches in a folder of their own, empty at first: the first build is cold on every run.
  const cache = freshCacheDir();
  const buildEnv = { ...env, ...cache.env };
  const copied = flat ? '/en/docs/routing' : '/de/docs/routing';
  try {
    // Balanced: a generated docs page, a copy of the default site's routing page (large-site.ts), with its own
    // sidebar. Flat: a page in the middle of the largest section, against a page of a small section.
    // (Inside the try: a site too small for it still has its folders removed.)
    const large = flat ? flatPage(localesDir) : generatedPage(localesDir);
    // Each build on every CPU, as a user's `npm run build` runs (this process is pinned to one for
    // the load, and a child inherits that): the content compiles in a thread per core.
    const build = timedBuild(buildEnv, { wholeMachine: true });
    // Built again with nothing changed (the warm floor), then after one page's text changed: the
    // content cache keeps every other page and every locale whose inputs did not change
    // (scripts/locale-cache.ts).
    const warm = timedBuild(buildEnv, { wholeMachine: true });
    appendFileSync(onePageFile(localesDir), '\nOne more line, to build again.\n');
    const rebuild = timedBuild(buildEnv, { wholeMachine: true });
    const counted = Number(spawnSync('bash', ['-c', `find ${localesDir} -name '*.md' | wc -l`], { encoding: 'utf8' }).stdout.trim());

    const rows: string[] = [];
    const comparisons: string[] = [];
    const weights: Record<string, number> = {};
    for (const mode of ['on', 'off'] as const) {
      // Both sites' servers run side by side: first each URL on its own (p99, statuses), then
      // the default site's page and the large site's in turns, which cancels the machine's drift.
      const servers = {} as Record<'default' | 'large', Server>;
      try {
        servers.default = await startServer({ RENDER_CACHE: mode }, DOCS_PAGE);
        servers.large = await startServer({ ...env, RENDER_CACHE: mode }, DOCS_PAGE);
        for (const site of ['default', 'large'] as const) {
          weights[site] = (await (await fetch(servers[site].url + DOCS_PAGE)).arrayBuffer()).byteLength;
          for (const path of site === 'large' ? [DOCS_PAGE, large] : [DOCS_PAGE]) {
            const result = await load(servers[site], path, LOAD);
            rows.push(`| ${site} | ${mode} | \`${path}\` | ${fmt(result.perCpu)} | ${result.p99} | ${result.status} | ${result.errors} |`);
          }
        }
        // The same page in both sites, then a generated page against the page whose text it copies
        // (flat: a page of the large section against one of the 50-page section, both in the large site).
        const pairs: [Target, string][] = [
          [{ server: servers.default, path: DOCS_PAGE }, DOCS_PAGE],
          flat
            ? [{ server: servers.large, path: flatPage(localesDir, FLAT_SMALL_SECTION.name) }, large]
            : [{ server: servers.default, path: copied }, large],
        ];
        for (const [{ server: baseServer, path: base }, path] of pairs) {
          const turns = await inTurns({ server: baseServer, path: base }, { server: servers.large, path }, LARGE_ROUNDS);
          const perCpu = (side: 'base' | 'other') => turns[side].requests / turns[side].cpu;
          comparisons.push(
            `| ${mode} | \`${base}\`${baseServer === servers.large ? ' (large site)' : ''} | \`${path}\` | ${fmt(perCpu('base'))} | ${fmt(perCpu('other'))} | **${percent(perCpu('other') / perCpu('base'))}** | ${percent(median(turns.ratios))} (${spread(turns.ratios)}) |`,
          );
        }
      } finally {
        await Promise.all(Object.values(servers).map((server) => stop(server.child)));
      }
    }

    // Cold start: the median of several starts (one start swings by a few hundred ms on a shared machine).
    const coldStarts: number[] = [];
    for (let i = 0; i < LARGE_COLD_STARTS; i++) {
      const started = await startServer(env, DOCS_PAGE);
      coldStarts.push(started.coldStartMs);
      await stop(started.child);
    }
    // Memory: a fresh server, idle, then every page of every locale once, HTML and page data.
    const server = await startServer(env, DOCS_PAGE);
    coldStarts.push(server.coldStartMs);
    let memory: string;
    let frame: Frame | null = null;
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idle = rss(server.child.pid!);
      if (flat) frame = await frameOf(server, large);
      const visited = await visitEverything(server);
      const afterPages = rss(server.child.pid!);
      // Then a search in every locale: each loads its locale's index (a large site's searches are the server's).
      const searches = await searchEveryLocale(server);
      memory = `${fmt(visited.pages)} pages, ${fmt(visited.requests)} requests (${visited.statuses}) at ${fmt(visited.requests / visited.seconds)} req/s (concurrency ${VISIT_CONCURRENCY}; ${visited.cpuMs.toFixed(2)} ms of server CPU per request); RSS idle ${idle.toFixed(0)} MB, after visiting everything ${afterPages.toFixed(0)} MB, and after a search in every locale (${searches}) ${rss(server.child.pid!).toFixed(0)} MB, peak ${peakRss(server.child.pid!).toFixed(0)} MB; cold start ${Math.round(median(coldStarts))} ms (median of ${coldStarts.join(', ')})`;
    } finally {
      await stop(server.child);
    }

    console.log(
      `\nlarge site (${shape}): ${fmt(counted)} Markdown files (${locales} locales), built cold (empty caches) in ${figures(build)}; ` +
        `warm, built again with nothing changed in ${figures(warm)}, and after one page's text changed in ${figures(rebuild)}`,
    );
    console.log(memory);
    if (frame) {
      console.log(
        `\`${large}\`: the document ${fmt(frame.document)} bytes and its page data ${fmt(frame.data)}, of which the content is ${fmt(frame.content)}: ` +
          `the frame is ${kb(frame.document - frame.content)} KB around the content in the document (target: at most 40 KB) and ${kb(frame.data - frame.contentInData)} KB in the page data (target: at most 10 KB)`,
      );
      // The export of the same build, as `npm run export` runs it (target: 5 minutes, 2.5 GB).
      const exported = exportOnce(env, distDir);
      console.log(
        `export: ${fmt(exported.pages)} pages, ${fmt(exported.files)} files, ${(exported.bytes / 1024 ** 3).toFixed(2)} GB written in ${exported.seconds.toFixed(1)} s, peak RSS ${exported.peakMb} MB (targets: at most 300 s and 2.5 GB)`,
      );
    }
    console.log(
      `\`${DOCS_PAGE}\` weighs ${fmt(weights.large!)} bytes in the large site, ${fmt(weights.default!)} in the default site (${((weights.large! / weights.default! - 1) * 100).toFixed(1)} %)`,
    );
    console.log('\n| site | render cache | URL | req per CPU-s | p99 ms | status | errors |');
    console.log('|---|---|---|--:|--:|---|--:|');
    for (const row of rows) console.log(row);
    console.log(
      `\nThe large site's pages against the default site's, in ${LARGE_ROUNDS} turns of ${TURN_SECONDS} s each, both servers side by side (target: within 10 %):\n`,
    );
    console.log(
      '| render cache | default site URL | large site URL | default req per CPU-s | large req per CPU-s | large vs default | turn by turn: median (range) |',
    );
    console.log('|---|---|---|--:|--:|--:|---|');
    for (const row of comparisons) console.log(row);
  } finally {
    rmSync(localesDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
    cache.dispose();
  }
}

const figures = (build: ReturnType<typeof timedBuild>) =>
  `${build.seconds.toFixed(1)} s wall, ${build.cpuSeconds} CPU-s, peak RSS ${build.peakMb} MB`;

type Frame = { document: number; data: number; content: number; contentInData: number };

/**
 * A page's weight in the two forms a reader gets it (the document, and the page data a click
 * fetches), uncompressed, and the weight of its own content in each (the article's HTML, and the
 * same as a JSON string): what is left is the frame (header, sidebar, pager, head), which the
 * flat shape's target bounds whatever the section's size.
 */
async function frameOf(server: Server, path: string): Promise<Frame> {
  const build = ((await (await fetch(`${server.url}/healthz`)).json()) as { build: string }).build;
  const document = await (await fetch(server.url + path)).text();
  const data = await (await fetch(`${server.url}/_data/${build}${path}.json`)).text();
  const content = (JSON.parse(data) as { page: { screen: { html: string } } }).page.screen.html;
  return {
    document: Buffer.byteLength(document),
    data: Buffer.byteLength(data),
    content: Buffer.byteLength(content),
    contentInData: Buffer.byteLength(JSON.stringify(content)),
  };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The default locale's page file in the middle of its pages, by name: the one the rebuild changes. */
function onePageFile(localesDir: string): string {
  const pagesDir = join(localesDir, loadConfig({ PORT: '0' }).defaultLocale, 'pages');
  const files = readdirSync(pagesDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.md'))
    .sort();
  return join(pagesDir, files[Math.floor(files.length / 2)]!);
}

/** A page in the middle of a flat shape's section, by default its largest (`/en/docs/commands/<name>`). */
function flatPage(localesDir: string, sectionName = 'commands'): string {
  const { defaultLocale } = loadConfig({ PORT: '0' });
  const section = join(localesDir, defaultLocale, 'pages', 'docs', sectionName);
  const names = readdirSync(section)
    .filter((name) => name.endsWith('.md') && name !== 'index.md')
    .sort();
  return `/${defaultLocale}/docs/${sectionName}/${names[Math.floor(names.length / 2)]!.replace(/\.md$/, '')}`;
}

/** A search page with a query in every locale the site has, one after another: their statuses. */
async function searchEveryLocale(server: Server): Promise<string> {
  const statuses: number[] = [];
  for (const locale of loadConfig({ PORT: '0', LOCALES_DIR: server.env.LOCALES_DIR }).locales) {
    const response = await fetch(`${server.url}/${locale}/search?q=files`);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses.join(', ');
}

/** Every sitemap page once, and its page data, a few at a time, as a browser would ask (brotli). */
async function visitEverything(server: Server) {
  const build = ((await (await fetch(`${server.url}/healthz`)).json()) as { build: string }).build;
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const urls = paths.flatMap((path) => [path, `/_data/${build}${path}.json`]);
  const started = performance.now();
  const cpu = cpuSeconds(server.child.pid!);
  const statuses = await crawl(server, urls, VISIT_CONCURRENCY);
  const seconds = (performance.now() - started) / 1000;
  return {
    pages: paths.length,
    requests: urls.length,
    seconds,
    // The server's CPU per request: what its req/s would be alone on its core, whatever else ran.
    cpuMs: ((cpuSeconds(server.child.pid!) - cpu) * 1000) / urls.length,
    statuses,
  };
}

function selectedPasses(args: string[]): Pass[] {
  const at = args.indexOf('--only');
  if (at === -1) return [...PASSES];
  const wanted = args[at + 1] as Pass;
  if (!PASSES.includes(wanted)) {
    console.error(`bench: --only takes one of ${PASSES.join(', ')}`);
    process.exit(2);
  }
  return [wanted];
}

async function pagesPass(build: string) {
  const targets: [string, string][] = [
    ['home', '/en'],
    ['docs (nested, de)', DOCS_PAGE],
    ['blog post (ja)', '/ja/blog/streaming-ssr-without-a-framework'],
    ['404 (fr)', '/fr/nope'],
    ['page data JSON', `/_data/${build}${DOCS_PAGE}.json`],
  ];

  const rows: Row[] = [];
  const summary: { mode: string; coldStartMs: number; peakRssMb: number }[] = [];
  let memory = '';
  for (const mode of ['on', 'off'] as const) {
    const server = await startServer({ RENDER_CACHE: mode }, DOCS_PAGE);
    try {
      // The memory check runs after the peak is read: it fills the render cache with every page.
      for (const [name, path] of targets)
        rows.push({ mode, name, path, ...(await load(server, path, LOAD)), peakRssMb: peakRss(server.child.pid!) });
      summary.push({ mode, coldStartMs: server.coldStartMs, peakRssMb: peakRss(server.child.pid!) });
      if (mode === 'on') memory = await memoryCheck(server, build);
    } finally {
      await stop(server.child);
    }
  }

  console.log('\n| render cache | URL | req/s | req per CPU-s | p50 ms | p99 ms | bytes/resp | errors | status | peak RSS MB so far |');
  console.log('|---|---|--:|--:|--:|--:|--:|--:|---|--:|');
  for (const row of rows) {
    console.log(
      `| ${row.mode} | ${row.name} \`${row.path.length > 40 ? `${row.path.slice(0, 37)}...` : row.path}\` | ${fmt(row.rps)} | ${fmt(row.perCpu)} | ${row.p50} | ${row.p99} | ${fmt(row.bytes)} | ${row.errors} | ${row.status} | ${row.peakRssMb.toFixed(1)} |`,
    );
  }
  console.log('\n| render cache | cold start ms (spawn to first 200) | peak RSS MB under the URL loads |');
  console.log('|---|--:|--:|');
  for (const entry of summary) console.log(`| ${entry.mode} | ${entry.coldStartMs} | ${entry.peakRssMb.toFixed(1)} |`);
  console.log(`\n${memory}`);
  console.log('\nReading it: req per CPU-s divides requests by the CPU time the server used (user+system), so it does not');
  console.log('depend on how busy the load generator was; compare modes and peers by it. Bodies are uncompressed (no Accept-Encoding).');
}

type Setting = 'off' | 'on';
type CacheMode = 'cached' | 'uncached';
/** Requests and server CPU-seconds per setting, and the on/off ratio of each pair of turns. */
type Tally = Record<Setting, { requests: number; cpu: number }> & { ratios: number[]; pairRatios: number[] };

/**
 * Server pairs per render cache mode, turns per pair, and how long a turn is. Two
 * processes of the same build differ by a few % (what V8 happened to optimize), so
 * the pass starts several pairs rather than loading one pair for longer.
 */
const MONITORING_PAIRS = Number(process.env.BENCH_MONITORING_PAIRS ?? 3);
const MONITORING_ROUNDS = Number(process.env.BENCH_MONITORING_ROUNDS ?? 6);
const TURN_SECONDS = 0.5;

/**
 * Monitoring off and on, paired: for each render cache mode, pairs of servers, one
 * without and one with SENTRY_DSN (started in alternating order), under the same
 * load on DOCS_PAGE, taking turns; then more cold starts, alternating, for a median.
 * The targets: req per CPU-s within 5 %, peak RSS within +15 MB, cold
 * start within +50 ms.
 */
async function monitoringPass() {
  const upstream = await startStandIn();
  const dsn = `http://benchkey@127.0.0.1:${upstream.port}/1`;
  const env = (setting: Setting): Record<string, string> => (setting === 'on' ? { SENTRY_DSN: dsn } : {});
  const coldStartsMs: Record<Setting, number[]> = { off: [], on: [] };
  const peakRssMb: Record<Setting, Record<CacheMode, number[]>> = { off: { cached: [], uncached: [] }, on: { cached: [], uncached: [] } };
  const tallies = {} as Record<CacheMode, Tally>;
  try {
    for (const cache of ['cached', 'uncached'] as const) {
      const tally: Tally = { off: { requests: 0, cpu: 0 }, on: { requests: 0, cpu: 0 }, ratios: [], pairRatios: [] };
      tallies[cache] = tally;
      for (let pair = 0; pair < MONITORING_PAIRS; pair++) {
        const servers = {} as Record<Setting, Server>;
        try {
          for (const setting of pair % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const))
            servers[setting] = await startServer({ RENDER_CACHE: cache === 'cached' ? 'on' : 'off', ...env(setting) }, DOCS_PAGE);
          await loadInterleaved(servers, DOCS_PAGE, tally);
          for (const setting of ['off', 'on'] as const) {
            coldStartsMs[setting].push(servers[setting].coldStartMs);
            peakRssMb[setting][cache].push(peakRss(servers[setting].child.pid!));
          }
        } finally {
          await Promise.all(Object.values(servers).map((server) => stop(server.child)));
        }
      }
    }
    for (let round = 0; round < COLD_STARTS; round++) {
      for (const setting of round % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const server = await startServer(env(setting), DOCS_PAGE);
        coldStartsMs[setting].push(server.coldStartMs);
        await stop(server.child);
      }
    }
  } finally {
    await upstream.close();
  }

  const perCpu = (cache: CacheMode, setting: Setting) => tallies[cache][setting].requests / tallies[cache][setting].cpu;
  const ratio = (cache: CacheMode) => perCpu(cache, 'on') / perCpu(cache, 'off');
  const rss = (setting: Setting, cache: CacheMode) => median(peakRssMb[setting][cache]);
  const cold = (setting: Setting) => Math.round(median(coldStartsMs[setting]));
  const signed = (value: number, unit: string) => `${value >= 0 ? '+' : ''}${value.toFixed(unit === 'MB' ? 1 : 0)} ${unit}`;
  console.log(
    `\nmonitoring (SENTRY_DSN set vs unset), ${DOCS_PAGE}: ${MONITORING_PAIRS} server pairs per render cache mode, ${MONITORING_ROUNDS} turns of ${TURN_SECONDS} s per server; each monitoring-on server relays one browser envelope first; envelopes received by the stand-in: ${upstream.received()}\n`,
  );
  console.log(
    '| monitoring | cached req per CPU-s | uncached req per CPU-s | peak RSS MB, cached | peak RSS MB, uncached | cold start ms |',
  );
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const setting of ['off', 'on'] as const)
    console.log(
      `| ${setting} | ${fmt(perCpu('cached', setting))} | ${fmt(perCpu('uncached', setting))} | ${rss(setting, 'cached').toFixed(1)} | ${rss(setting, 'uncached').toFixed(1)} | ${cold(setting)} (${coldStartsMs[setting].join(', ')}) |`,
    );
  console.log(
    `| **on vs off** | **${percent(ratio('cached'))}** | **${percent(ratio('uncached'))}** | **${signed(rss('on', 'cached') - rss('off', 'cached'), 'MB')}** | **${signed(rss('on', 'uncached') - rss('off', 'uncached'), 'MB')}** | **${signed(cold('on') - cold('off'), 'ms')}** |`,
  );
  const detail = (cache: CacheMode) =>
    `${tallies[cache].pairRatios.map(percent).join(', ')}; turns ${percent(median(tallies[cache].ratios))} (${spread(tallies[cache].ratios)})`;
  console.log(`| on vs off by pair; turn-by-turn median (range) | ${detail('cached')} | ${detail('uncached')} | | | |`);
  console.log('| target | within 5 % | within 5 % | within +15 MB | within +15 MB | within +50 ms |');
  console.log(
    '\nPeak RSS and cold start: medians over the servers started (cold start: spawn to first 200). The last line shows the noise: each pair of processes, and each on turn against the off turn next to it; a wide range means the machine was busy.',
  );
}

/** A ratio as a signed change: 0.93 -> `-7.0 %`. */
function percent(value: number): string {
  return `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(1)} %`;
}

function spread(ratios: number[]): string {
  const percents = ratios.map((ratio) => (ratio - 1) * 100);
  return `${Math.min(...percents).toFixed(1)}..${Math.max(...percents).toFixed(1)} %`;
}

/** One pair of servers, monitoring off (the base) and on, taking turns on `path`: adds to `tally`. */
async function loadInterleaved(servers: Record<Setting, Server>, path: string, tally: Tally): Promise<void> {
  // A browser's envelope through the relay, as a deployment with monitoring gets them. Before
  // the warm-up: loading the relay is a one-off (~0.1-0.2 s of CPU, compiling and collecting
  // for a moment after), which would otherwise land in the first measured turn.
  await relayEnvelope(servers.on);
  const turns = await inTurns({ server: servers.off, path }, { server: servers.on, path }, MONITORING_ROUNDS);
  tally.ratios.push(...turns.ratios);
  tally.off.requests += turns.base.requests;
  tally.off.cpu += turns.base.cpu;
  tally.on.requests += turns.other.requests;
  tally.on.cpu += turns.other.cpu;
  tally.pairRatios.push(turns.other.requests / turns.other.cpu / (turns.base.requests / turns.base.cpu));
}

type Target = { server: Server; path: string };

/** loadInTurns (scripts/bench/turns.ts) on two servers of this bench, with its turn settings. */
function inTurns(base: Target, other: Target, rounds: number): Promise<Turns> {
  const turnTarget = ({ server, path }: Target) => ({ url: server.url + path, cpuSeconds: () => cpuSeconds(server.child.pid!) });
  return loadInTurns(turnTarget(base), turnTarget(other), {
    rounds,
    turnSeconds: TURN_SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
  });
}

async function relayEnvelope(server: Server) {
  const dsn = server.env.SENTRY_DSN!;
  const envelope = `${JSON.stringify({ dsn })}\n{"type":"event"}\n{"message":"bench"}\n`;
  const response = await fetch(`${server.url}/monitoring`, { method: 'POST', body: envelope });
  if (response.status !== 200) throw new Error(`the relay answered ${response.status}`);
}

/** A loopback stand-in for Sentry's ingest: accepts any POST with 200 and counts it. */
async function startStandIn(): Promise<{ port: number; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST') received += 1;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Requests across every page of every locale (and their page data); RSS must not grow with the count. */
async function memoryCheck(server: Server, build: string): Promise<string> {
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const requests = paths.flatMap((path) => [{ path }, { path: `/_data/${build}${path}.json` }]);
  const pid = server.child.pid!;
  const third = Math.round(MEMORY_REQUESTS / 3);
  await autocannon({ url: server.url, connections: CONNECTIONS, amount: third, requests });
  const rssWarm = rss(pid);
  const result = await autocannon({ url: server.url, connections: CONNECTIONS, amount: MEMORY_REQUESTS - third, requests });
  const rssEnd = rss(pid);
  const perRequest = ((rssEnd - rssWarm) * 1024 * 1024) / result.requests.total;
  return (
    `memory check (render cache on): ${MEMORY_REQUESTS.toLocaleString('en')} requests over ${requests.length} URLs (${paths.length} pages x HTML and JSON), ` +
    `${result.errors + result.timeouts} errors and statuses ${statusCounts(result)} over the last ${(MEMORY_REQUESTS - third).toLocaleString('en')}; RSS ${rssWarm.toFixed(1)} MB after the first ${third.toLocaleString('en')}, ${rssEnd.toFixed(1)} MB at the end ` +
    `(${perRequest >= 0 ? '+' : ''}${perRequest.toFixed(2)} bytes per request)`
  );
}

main().catch((error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});
