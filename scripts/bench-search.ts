/**
 * `npx tsx scripts/bench-search.ts [--pages N]`: the search figures, measured, not
 * tested. Prints the index size of each locale (gzip and brotli), the server's
 * search throughput in req per CPU-second on two-word queries (the results page
 * and its JSON), and typing-to-results in Chromium (input event to the list
 * rendered, per keystroke). With `--pages N` it also generates a site of N pages
 * (N/5 per locale) in a temporary folder, builds it there, and reports its index
 * sizes, whether the box downloads the index or asks the server, and the bytes a
 * visitor downloads while typing a query. Ends by itself and stops what it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { ROOT_DIR } from '../src/server/config.ts';
import { launchBrowser } from '../test/helpers/browser.ts';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLOCK_TICKS = 100; // USER_HZ on Linux
const hasTaskset = spawnSync('taskset', ['-c', '1', 'true']).status === 0;
const pagesArg = process.argv.indexOf('--pages');
const PAGES = pagesArg === -1 ? 0 : Number(process.argv[pagesArg + 1]);

async function main() {
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
  run('npm', ['run', 'build', '--silent']);
  const dist = join(ROOT_DIR, 'dist');
  console.log('\n## Search index per locale (the default site)\n');
  printIndexSizes(dist);

  console.log(`\n## Server search, ${CONNECTIONS} connections, ${SECONDS} s each${hasTaskset ? ', server on CPU 0, load on CPU 1' : ''}\n`);
  console.log('| render cache | query | URL | req/s | req per CPU-s | p50 ms | p99 ms | status |');
  console.log('|---|---|---|--:|--:|--:|--:|---|');
  for (const mode of ['off', 'on'] as const) {
    const server = await startServer({ RENDER_CACHE: mode });
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
        const row = await load(server, path);
        console.log(
          `| ${mode} | ${name} | \`${path.slice(0, 48)}\` | ${fmt(row.rps)} | **${fmt(row.perCpu)}** | ${row.p50} | ${row.p99} | ${row.status} |`,
        );
      }
    } finally {
      await stop(server.child);
    }
  }

  const server = await startServer({});
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
  } finally {
    await stop(server.child);
  }

  if (PAGES > 0) await largeSite(PAGES);
}

function printIndexSizes(dist: string) {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { search: Record<string, string> };
  console.log('| locale | raw KB | gzip KB | brotli KB |');
  console.log('|---|--:|--:|--:|');
  for (const [locale, url] of Object.entries(manifest.search)) {
    const bytes = readFileSync(join(dist, 'client', url));
    console.log(
      `| ${locale} | ${kb(bytes.length)} | **${kb(gzipSync(bytes, { level: 9 }).length)}** | ${kb(brotliCompressSync(bytes).length)} |`,
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
  const root = mkdtempSync(join(tmpdir(), 'polysite-search-bench-'));
  try {
    const localesDir = join(root, 'locales');
    const distDir = join(root, 'dist');
    const perLocale = Math.floor(pages / 5);
    generateSite(localesDir, perLocale);
    const started = performance.now();
    const built = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', `import('./scripts/build.ts').then((m) => m.build({ outDir: ${JSON.stringify(distDir)} }))`],
      {
        cwd: ROOT_DIR,
        env: { ...process.env, LOCALES_DIR: localesDir },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (built.status !== 0) throw new Error('the large site did not build');
    console.log(
      `\n## A generated site of ${pages.toLocaleString('en')} pages (${perLocale.toLocaleString('en')} per locale), built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    printIndexSizes(distDir);
    const server = await startServer({ LOCALES_DIR: localesDir, DIST_DIR: distDir }, `/en/docs/p0`);
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
      const row = await load(server, `/_data/${build}/en/search.json?q=render+cache`);
      console.log(
        `server search, two words, JSON: **${fmt(row.perCpu)}** req per CPU-s (${fmt(row.rps)} req/s, p99 ${row.p99} ms, ${row.status})`,
      );
    } finally {
      await stop(server.child);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** N pages per locale under docs/, each a few sections of sentences taken from the default site's own text in that locale. */
function generateSite(localesDir: string, perLocale: number) {
  const source = join(ROOT_DIR, 'locales');
  let seed = 1;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (const locale of readdirSync(source)) {
    const sentences = readdirSync(join(source, locale, 'pages'), { recursive: true })
      .filter((file) => String(file).endsWith('.md'))
      .flatMap((file) =>
        readFileSync(join(source, locale, 'pages', String(file)), 'utf8')
          .split('---')
          .slice(2)
          .join('')
          .split(/(?<=[.。!?؟])\s*/),
      )
      .map((sentence) =>
        sentence
          .replace(/[#|`*[\]()<>]/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .filter((sentence) => sentence.length > 20);
    const pick = () => sentences[Math.floor(random() * sentences.length)]!;
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(localesDir, locale, file)), { recursive: true });
      writeFileSync(join(localesDir, locale, file), text);
    };
    write('messages.json', readFileSync(join(source, locale, 'messages.json'), 'utf8'));
    write('pages/index.md', '---\ntitle: Home\ndescription: Home.\n---\nHome.\n');
    write('pages/docs/index.md', '---\ntitle: Docs\ndescription: Docs.\n---\nDocs.\n');
    for (let i = 0; i < perLocale - 2; i++) {
      const sections = Array.from({ length: 4 }, (_, s) => `## ${pick().slice(0, 40)} ${s}\n\n${pick()} ${pick()} ${pick()}\n`).join('\n');
      write(
        `pages/docs/p${i}.md`,
        `---\ntitle: ${JSON.stringify(pick().slice(0, 50))}\ndescription: Generated.\n---\n${pick()}\n\n${sections}`,
      );
    }
  }
}

type Server = { child: ChildProcess; url: string };

async function startServer(env: Record<string, string>, probe = '/en'): Promise<Server> {
  const port = await freePort();
  const command = readFileSync(join(ROOT_DIR, 'Procfile'), 'utf8').match(/^web:\s*(.+)$/m)![1]!;
  const child = spawn(
    hasTaskset ? 'taskset' : 'bash',
    hasTaskset ? ['-c', '0', 'bash', '-c', `exec ${command}`] : ['-c', `exec ${command}`],
    {
      cwd: ROOT_DIR,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    if (
      await fetch(url + probe).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { child, url };
    if (performance.now() - started > 60_000) throw new Error('server did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function buildOf(server: Server): Promise<string> {
  return ((await (await fetch(`${server.url}/healthz`)).json()) as { build: string }).build;
}

async function load(server: Server, path: string) {
  await autocannon({ url: server.url + path, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = cpuSeconds(server.child.pid!);
  const result = await autocannon({ url: server.url + path, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  const total = result.requests.total;
  const status = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => `${code}×${(stats as { count: number }).count}`)
    .join(' ');
  return { rps: total / SECONDS, perCpu: cpu > 0 ? total / cpu : 0, p50: result.latency.p50, p99: result.latency.p99, status };
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: ROOT_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const fmt = (value: number) => Math.round(value).toLocaleString('en');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

main().catch((error) => {
  console.error(`bench-search failed: ${error.message}`);
  process.exit(1);
});
