// What every benchmark script shares: start the production server the way the
// Procfile does (pinned to CPU 0 when taskset exists), load it with autocannon,
// and read its CPU time and memory from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { ROOT_DIR } from '../../src/server/config.ts';
import { freePort } from '../free-port.ts';

const CLOCK_TICKS = 100; // USER_HZ on Linux
export const hasTaskset = spawnSync('taskset', ['-c', '1', 'true']).status === 0;

/** The load generator (this process) on CPU 1, away from the server on CPU 0. */
export function pinLoadGenerator(): void {
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
}

export type Server = { child: ChildProcess; url: string; coldStartMs: number; env: Record<string, string> };

/** Starts the built server with the Procfile's command; resolves at the first 200 for `probe` (the cold start). */
export async function startServer(env: Record<string, string>, probe: string, timeoutMs = 60_000): Promise<Server> {
  const port = await freePort();
  const procfile = readFileSync(join(ROOT_DIR, 'Procfile'), 'utf8').match(/^web:\s*(.+)$/m)![1]!;
  // The Procfile names the bundle under dist/; a build into DIST_DIR wrote its own there, and
  // the root's may be another (or an older) build's.
  const bundle = /(?<=^|\s)dist\/server\/main\.js(?=\s|$)/;
  if (env.DIST_DIR && !bundle.test(procfile)) throw new Error("the Procfile's web command does not name dist/server/main.js");
  const command = env.DIST_DIR ? procfile.replace(bundle, () => quoted(join(env.DIST_DIR!, 'server', 'main.js'))) : procfile;
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
    const ok = await fetch(url + probe).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return { child, url, coldStartMs: Math.round(performance.now() - started), env };
    if (performance.now() - started > timeoutMs) throw new Error(`server did not answer within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A path as one bash word. */
function quoted(path: string): string {
  return `'${path.replaceAll("'", "'\\''")}'`;
}

export type LoadOptions = { connections: number; seconds: number; warmupSeconds: number };

/** Loads one URL; req per CPU-s divides the requests by the server's CPU time over the same span. */
export async function load(server: Server, path: string, { connections, seconds, warmupSeconds }: LoadOptions) {
  await autocannon({ url: server.url + path, connections, duration: warmupSeconds });
  const cpuBefore = cpuSeconds(server.child.pid!);
  const result = await autocannon({ url: server.url + path, connections, duration: seconds });
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  const total = result.requests.total;
  return {
    rps: total / seconds,
    perCpu: cpu > 0 ? total / cpu : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: total ? result.throughput.total / total : 0,
    errors: result.errors + result.timeouts,
    status: statusCounts(result),
  };
}

export function statusCounts(result: autocannon.Result): string {
  return Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => `${code}×${(stats as { count: number }).count}`)
    .join(' ');
}

/** User + system CPU seconds the process has used. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

export function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

export function peakRss(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** SIGTERM, then SIGKILL after 5 s. */
export function stop(child: ChildProcess): Promise<void> {
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

/** Runs a command in the repository; its failure ends the benchmark. */
/**
 * `npm run build` of the generated site: wall seconds, and the CPU-seconds and peak RSS
 * GNU time reports, where it is installed (the largest process's peak: the build's
 * threads are one process, so its peak is the build's). `wholeMachine`: on every CPU, as
 * `run` starts a tool a user runs on the whole machine (the bench itself is pinned to one).
 */
export function timedBuild(
  env: Record<string, string>,
  { wholeMachine = false } = {},
): { seconds: number; cpuSeconds: string; peakMb: string } {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'polysite-build %e %U %S %M'] : [];
  const widen = wholeMachine && hasTaskset ? ['taskset', '-c', `0-${cpus().length - 1}`] : [];
  const started = performance.now();
  const [command, ...args] = [...widen, ...time, 'npm', 'run', '--silent', 'build'];
  const result = spawnSync(command!, args, {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the build failed: ${result.stderr}`);
  const seconds = (performance.now() - started) / 1000;
  const figures = /polysite-build ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr);
  if (!figures) return { seconds, cpuSeconds: '?', peakMb: '?' };
  return {
    seconds,
    cpuSeconds: (Number(figures[2]) + Number(figures[3])).toFixed(1),
    peakMb: (Number(figures[4]) / 1024).toFixed(0),
  };
}

/**
 * Runs a step to completion, on every CPU: this process is pinned to CPU 1 for the
 * load, and a child inherits that, but a build measured here must use the machine
 * as `npm run build` does (it compiles and indexes a large site in worker threads).
 */
export function run(command: string, args: string[], env: Record<string, string> = {}, output: 'inherit' | 'ignore' = 'inherit') {
  // os.cpus() lists every CPU of the machine, whatever this process is pinned to.
  const [file, ...rest] = hasTaskset ? ['taskset', '-c', `0-${cpus().length - 1}`, command, ...args] : [command, ...args];
  const result = spawnSync(file!, rest, { cwd: ROOT_DIR, stdio: ['ignore', output, 'inherit'], env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * This host's speed now: how long one core takes over a fixed loop of integer additions.
 * A shared or throttled machine runs the same work at very different speeds from hour to
 * hour; printed at the start and end of a run, it says which runs' figures compare. It is
 * no figure of polysite's: a change is shown by runs of both versions alternated in one window.
 */
export function hostLoopMs(): number {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 300_000_000; i++) sum += i % 7;
  // The sum is used, so the loop is not optimised away.
  if (sum < 0) throw new Error('unreachable');
  return performance.now() - started;
}

export function fmt(value: number): string {
  return Math.round(value).toLocaleString('en');
}

// Kept with the turns it summarises (turns.ts, which has no side effects to import).
export { median } from './turns.ts';

/**
 * Asks for every one of `urls` once (brotli accepted, bodies read whole), `concurrency` at
 * a time, and counts the answers by status: `200×9800 404×2`. With undici's request, not
 * fetch: the bodies are read as sent, not decoded. fetch (its streams, and brotli's decoder)
 * cost this process about as much CPU per request as the server's answer, enough to be
 * what a crawl on a busy machine measured.
 */
export async function crawl(server: Server, urls: readonly string[], concurrency: number): Promise<string> {
  const statuses = new Map<number, number>();
  const pool = new Pool(server.url, { connections: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const { statusCode, body } = await pool.request({ path: urls[next++]!, method: 'GET', headers: { 'accept-encoding': 'br' } });
      await body.arrayBuffer();
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  return [...statuses].map(([code, count]) => `${code}×${count}`).join(' ');
}

/**
 * A fresh, empty folder for the build's caches (POLYSITE_CACHE_DIR, scripts/cache-root.ts),
 * as the environment of the builds a pass makes of a generated site: its first build is cold
 * on every run, whatever an earlier run left, and the checkout's own caches stay as they were.
 * `dispose` removes it.
 */
export function freshCacheDir(): { env: { POLYSITE_CACHE_DIR: string }; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'polysite-bench-cache-'));
  return { env: { POLYSITE_CACHE_DIR: dir }, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
