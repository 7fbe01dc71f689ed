/**
 * `npm run bench`: the production build under load on loopback, with the render
 * cache on and off. Prints one table (req/s, req per CPU-second of the server,
 * p50/p99, bytes per response, errors, peak RSS, cold start) and a memory check.
 * Ends by itself in about two minutes and stops what it started. Not part of
 * `npm test`: a benchmark, not a timed test.
 *
 * The server is pinned to CPU 0 and this process (the load generator) to CPU 1
 * when `taskset` exists, so the two do not compete.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT_DIR } from '../src/server/config.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 300_000);
const CLOCK_TICKS = 100; // USER_HZ on Linux
const hasTaskset = spawnSync('taskset', ['-c', '1', 'true']).status === 0;

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

async function main() {
  if (!existsSync(join(ROOT_DIR, 'dist', 'manifest.json'))) run('npm', ['run', 'build']);
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
  const build = JSON.parse(readFileSync(join(ROOT_DIR, 'dist', 'manifest.json'), 'utf8')).build as string;
  const targets: [string, string][] = [
    ['home', '/en'],
    ['docs (nested, de)', '/de/docs/guides/install'],
    ['blog post (ja)', '/ja/blog/streaming-ssr-without-a-framework'],
    ['404 (fr)', '/fr/nope'],
    ['page data JSON', `/_data/${build}/de/docs/guides/install.json`],
  ];

  const rows: Row[] = [];
  const summary: { mode: string; coldStartMs: number; peakRssMb: number }[] = [];
  let memory = '';
  for (const mode of ['on', 'off'] as const) {
    const server = await startServer({ RENDER_CACHE: mode });
    try {
      // The memory check runs after the peak is read: it fills the render cache with every page.
      for (const [name, path] of targets)
        rows.push({ mode, name, path, ...(await load(server, path)), peakRssMb: peakRss(server.child.pid!) });
      summary.push({ mode, coldStartMs: server.coldStartMs, peakRssMb: peakRss(server.child.pid!) });
      if (mode === 'on') memory = await memoryCheck(server, build);
    } finally {
      await stop(server.child);
    }
  }

  console.log(
    `\npolysite bench: ${CONNECTIONS} connections, ${SECONDS} s per URL after ${WARMUP_SECONDS} s warm-up, Node ${process.version}${hasTaskset ? ', server on CPU 0, load on CPU 1' : ''}\n`,
  );
  console.log('| render cache | URL | req/s | req per CPU-s | p50 ms | p99 ms | bytes/resp | errors | status | peak RSS MB so far |');
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

type Server = { child: ChildProcess; url: string; coldStartMs: number };

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const command = readFileSync(join(ROOT_DIR, 'Procfile'), 'utf8').match(/^web:\s*(.+)$/m)![1]!;
  const started = performance.now();
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
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    const ok = await fetch(`${url}/de/docs/guides/install`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return { child, url, coldStartMs: Math.round(performance.now() - started) };
    if (performance.now() - started > 20_000) throw new Error('server did not answer within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function load(server: Server, path: string) {
  await autocannon({ url: server.url + path, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  const cpuBefore = cpuSeconds(server.child.pid!);
  const result = await autocannon({ url: server.url + path, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  const total = result.requests.total;
  const statuses = statusCounts(result);
  return {
    rps: total / SECONDS,
    perCpu: cpu > 0 ? total / cpu : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: total ? result.throughput.total / total : 0,
    errors: result.errors + result.timeouts,
    status: statuses,
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

function statusCounts(result: autocannon.Result): string {
  return Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => `${code}×${(stats as { count: number }).count}`)
    .join(' ');
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

function peakRss(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
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
  const result = spawnSync(command, args, { cwd: ROOT_DIR, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en');
}

main().catch((error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});
