/**
 * `npm run bench -- --only lighthouse`: Lighthouse (mobile, its default simulated
 * throttling) on every screen type of the default site in en, ja and ar: performance,
 * accessibility, best practices and SEO scores, LCP, TBT, CLS, and the main thread's style and
 * layout time (Lighthouse's, scaled by its 4x CPU slowdown), each the median of
 * LIGHTHOUSE_RUNS runs (3); LIGHTHOUSE_LOCALES and LIGHTHOUSE_SCREENS (names, comma-separated)
 * narrow it. A screen that fails an audit by design (a not-found page answers 404 and is
 * noindex, a results page is noindex) is scored without it, marked `*`, with the reason under
 * the table (lighthouse-exemptions.ts). Lighthouse is installed into bench/lighthouse/ when the pass
 * first runs (its own package.json and lock, like the peers of `npm run bench:peers`), never
 * by `npm install` or `npm test`. Chromium is CHROME_PATH, else the one the browser tests use.
 * The figures depend on the machine: compare runs made on a quiet one.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_FLAGS, findChromium } from '../../test/helpers/browser.ts';
import { ROOT_DIR } from '../../src/server/config.ts';
import { hasTaskset, median, startServer, stop } from './harness.ts';
import { exited, startGroup } from './process-group.ts';
import { type ScoredResult, categoryScore, exemptionNotes } from './lighthouse-exemptions.ts';

const DIR = join(ROOT_DIR, 'bench', 'lighthouse');
const INSTALL_STAMP = join(DIR, 'node_modules', '.bench-lighthouse-installed');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const LOCALES = (process.env.LIGHTHOUSE_LOCALES ?? 'en,ja,ar').split(',');
/** A subset of the screens by name (`home,docs page`), for a look at one change: all by default. */
const ONLY_SCREENS = process.env.LIGHTHOUSE_SCREENS?.split(',').map((name) => name.trim());

/** Every screen type; a localized path is reached by its default-locale path's redirect. */
const SCREENS: [string, string][] = [
  ['home', ''],
  ['docs index', '/docs'],
  ['docs page', '/docs/guides/install'],
  // The default site's longest docs page: its style and layout are the most of any screen.
  ['longest docs page', '/docs/content'],
  ['blog index', '/blog'],
  ['post', '/blog/streaming-ssr-without-a-framework'],
  ['about', '/about'],
  ['404', '/no-such-page'],
  ['search', '/search?q=install'],
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

type Result = { scores: number[]; exempt: boolean[]; lcp: number; tbt: number; cls: number; styleLayout: number };

type LighthouseResult = {
  lhr: ScoredResult & {
    audits: Record<string, { numericValue?: number }>;
    runtimeError?: { message: string };
  };
};

export async function lighthousePass(): Promise<void> {
  await install();
  const { default: lighthouse } = (await import(pathToFileURL(join(DIR, 'node_modules', 'lighthouse', 'core', 'index.js')).href)) as {
    default: (url: string, flags: Record<string, unknown>) => Promise<LighthouseResult | undefined>;
  };
  const { launch } = (await import(pathToFileURL(join(DIR, 'node_modules', 'chrome-launcher', 'dist', 'index.js')).href)) as {
    launch: (options: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill: () => void }>;
  };
  warnWithoutFonts();
  const server = await startServer({}, '/en');
  // Chromium gets every CPU, as a phone's browser would have its own: not the load generator's one CPU (harness.ts).
  if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH || findChromium(),
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  });
  console.log(
    `\nLighthouse ${lighthouseVersion()} (mobile, simulated throttling), median of ${RUNS} runs; the machine's load matters: compare quiet runs\n`,
  );
  const header = '| page | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | style+layout ms (4x) |';
  const rows = [header, '|---|--:|--:|--:|--:|--:|--:|--:|--:|'];
  console.log(rows.join('\n'));
  const exemptionsUsed = new Set<string>();
  try {
    for (const locale of LOCALES) {
      for (const [name, path] of SCREENS.filter(([name]) => !ONLY_SCREENS || ONLY_SCREENS.includes(name))) {
        const url = await finalUrl(`${server.url}/${locale}${path}`);
        const runs: Result[] = [];
        for (let i = 0; i < RUNS; i++) {
          const result = await measured(url, () =>
            lighthouse(url, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: [...CATEGORIES],
              // The not-found page is measured too: its 404 is what it is meant to answer.
              ignoreStatusCode: true,
            }),
          );
          if (!result || result.lhr.runtimeError) throw new Error(`lighthouse ${url}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
          const { audits } = result.lhr;
          const scored = CATEGORIES.map((category) => categoryScore(result.lhr, category, name, url));
          runs.push({
            scores: scored.map((category) => category.score),
            exempt: scored.map((category) => category.exempt),
            lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
            tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
            cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
            styleLayout: styleLayoutMs(result.lhr.audits),
          });
        }
        const scores = CATEGORIES.map((category, i) => {
          const exempt = runs.some((run) => run.exempt[i]);
          if (exempt) exemptionsUsed.add(`${name} ${category}`);
          return `${median(runs.map((run) => run.scores[i]!))}${exempt ? '*' : ''}`;
        });
        const row = `| ${name} (${locale}) ${new URL(url).pathname}${new URL(url).search} | ${scores.join(' | ')} | ${fmt(median(runs.map((run) => run.lcp)))} | ${fmt(median(runs.map((run) => run.tbt)))} | ${median(runs.map((run) => run.cls)).toFixed(3)} | ${fmt(median(runs.map((run) => run.styleLayout)))} |`;
        rows.push(row);
        console.log(row);
      }
    }
    const notes = exemptionNotes(exemptionsUsed);
    if (notes.length) console.log(`\n${notes.join('\n')}`);
  } finally {
    chrome.kill();
    await stop(server.child);
  }
}

/** Runs of one page that Lighthouse may make again, when it could not read the run's trace. */
const TRACE_RETRIES = 2;

/**
 * One run, made again (TRACE_RETRIES times at most) when Lighthouse reports that it could not
 * read the trace it recorded (a navigation start or a paint missing from it) and asks for
 * another run: a fault of the recording, not of the page, which would otherwise end the pass.
 * Any other error is the page's or the setup's, and ends it.
 */
async function measured(url: string, run: () => Promise<LighthouseResult | undefined>): Promise<LighthouseResult | undefined> {
  for (let attempt = 0; ; attempt++) {
    const result = await run();
    const error = result?.lhr.runtimeError;
    if (!error || attempt === TRACE_RETRIES || !/run Lighthouse again/i.test(error.message)) return result;
    console.error(`lighthouse ${url}: ${error.message} (running it again)`);
  }
}

/** Where a path ends after the server's redirects (a localized slug): Lighthouse measures the page, not the 308. */
async function finalUrl(url: string): Promise<string> {
  for (let hops = 0; hops < 5; hops++) {
    const response = await fetch(url, { redirect: 'manual' });
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return url;
    url = new URL(location, url).href;
  }
  throw new Error(`${url}: too many redirects`);
}

/** `npm install` in bench/lighthouse/, skipped while its package.json and lock are unchanged since the last one. */
async function install(): Promise<void> {
  const key = createHash('sha256')
    .update(readFileSync(join(DIR, 'package.json')))
    .update(readFileSync(join(DIR, 'package-lock.json')))
    .digest('hex');
  let installed = '';
  try {
    installed = readFileSync(INSTALL_STAMP, 'utf8');
  } catch {}
  if (installed === key) return;
  process.stderr.write('\n[lighthouse] npm install --no-save --no-audit --no-fund\n');
  const code = await exited(startGroup('npm install --no-save --no-audit --no-fund', { cwd: DIR, env: process.env }));
  if (code !== 0) throw new Error(`bench/lighthouse: npm install exited with ${code}`);
  writeFileSync(INSTALL_STAMP, key);
}

/**
 * A phone has fonts for every script it shows; a server image often has none for CJK. There,
 * every Japanese glyph is a fallback lookup in the first layout, and the ja rows measure the
 * host's fonts rather than the page. Said before the table, where a reader of it looks.
 */
function warnWithoutFonts(): void {
  if (!LOCALES.includes('ja')) return;
  const listed = spawnSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' });
  if (listed.error || listed.status !== 0) return;
  if (!listed.stdout.trim())
    console.log(
      '\n[lighthouse] no Japanese font on this host (fc-list :lang=ja): the ja rows are slower than on a phone; install one (Debian: fonts-noto-cjk)',
    );
}

/**
 * The main thread's style and layout, as Lighthouse's "Minimize main-thread work" reports it:
 * the trace's time scaled by its CPU slowdown (4) when it simulates a phone.
 */
function styleLayoutMs(audits: Record<string, unknown>): number {
  const breakdown = audits['mainthread-work-breakdown'] as { details?: { items?: { group?: string; duration?: number }[] } } | undefined;
  return breakdown?.details?.items?.find((item) => item.group === 'styleLayout')?.duration ?? Number.NaN;
}

function lighthouseVersion(): string {
  return JSON.parse(readFileSync(join(DIR, 'node_modules', 'lighthouse', 'package.json'), 'utf8')).version;
}

function fmt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '-';
}
