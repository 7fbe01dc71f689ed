/**
 * `npm run bench:peers`: the same docs page served by Next.js, React Router and bare React
 * (bench/peers/), then by polysite with its render cache on and off, one after another in one
 * run; prints the README's peer table. Installs and builds each peer first (skipped when
 * up to date), builds polysite, then for each target: start it pinned to CPU 0 (cold start is
 * spawn to first 200), check it serves the benchmark page, warm up, load it from this process on
 * CPU 1 while reading the server's CPU time, then its peak RSS and first-load JS; stop it.
 * Every server it starts is stopped, also on failure and Ctrl-C. Not part of `npm test`.
 *
 *   npm run bench:peers -- [--duration 10] [--warmup 3] [--connections 32] [--only polysite,next-dynamic] [--rebuild]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_MARKER, BENCH_PATH } from '../bench/peers/fixture/page.ts';
import { ROOT_DIR } from '../src/server/config.ts';
import { busySeconds } from './bench/cpu-busy.ts';
import { firstLoadJs } from './bench/first-load-js.ts';
import { preparePeer, type Peer } from './bench/prepare-peer.ts';
import { loadInTurns } from './bench/turns.ts';
import { canPin, cpuSeconds, exited, killLiveGroups, liveGroups, peakRssMb, startGroup, stopGroup } from './bench/process-group.ts';
import { PAIRED_RATIOS, pairedSummary, peerTable, type Measured, type Outcome } from './bench/peer-table.ts';
import { startServer } from './bench/start-server.ts';

const PEERS_DIR = join(ROOT_DIR, 'bench', 'peers');
const LOG_DIR = join(PEERS_DIR, '.logs');

const PEERS: Record<string, Peer> = {
  next: {
    name: 'next',
    dir: join(PEERS_DIR, 'next'),
    outputs: ['.next-dynamic', '.next-static'],
    generated: ['next-env.d.ts', 'tsconfig.tsbuildinfo'],
  },
  'react-router': { name: 'react-router', dir: join(PEERS_DIR, 'react-router'), outputs: ['build'], generated: ['.react-router'] },
  bare: { name: 'bare', dir: join(PEERS_DIR, 'bare'), outputs: ['dist'], generated: [] },
};

export type Target = {
  name: string;
  label: string;
  /** The peer package it runs from; none: polysite itself, from this checkout. */
  peer?: keyof typeof PEERS;
  command: string;
  env?: Record<string, string>;
  /** A string the page must contain, so a misbuilt target is not measured; default: the peers' page marker. */
  expect?: string;
  /** The precomputed buffer answers every path with the page, so it has no scripts to fetch. */
  measureJs?: false;
  /** Where the page is; default: the peers' BENCH_PATH. */
  path?: string;
  /** Serves polysite's own answer (bytes and headers, taken from a polysite server just before) from the buffer peer. */
  replaysPolysite?: true;
};

/**
 * polysite's German install guide has a localized path (`/de/docs/guides/install`
 * answers a 308 to it): the same page as the peers' BENCH_PATH, measured where it is.
 */
const POLYSITE_PATH = '/de/docs/anleitungen/installation';

const version = (peer: string, pkg: string) =>
  JSON.parse(readFileSync(join(PEERS_DIR, peer, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
const procfileWeb = readFileSync(join(ROOT_DIR, 'Procfile'), 'utf8').match(/^web:\s*(.+)$/m)![1]!;

const TARGETS: Target[] = [
  {
    name: 'next-dynamic',
    label: 'Next.js {next}, dynamic',
    peer: 'next',
    command: 'node node_modules/next/dist/bin/next start -H 127.0.0.1 -p $PORT',
    env: { NEXT_MODE: 'dynamic' },
  },
  {
    name: 'next-prerendered',
    label: 'Next.js {next}, prerendered',
    peer: 'next',
    command: 'node node_modules/next/dist/bin/next start -H 127.0.0.1 -p $PORT',
    env: { NEXT_MODE: 'static' },
  },
  {
    name: 'react-router',
    label: 'React Router {react-router}',
    peer: 'react-router',
    command: 'node node_modules/@react-router/serve/bin.js build/server/index.js',
  },
  { name: 'bare-stream', label: 'bare `renderToPipeableStream`', peer: 'bare', command: 'node dist/server.js', env: { RENDER: 'stream' } },
  { name: 'bare-string', label: 'bare `renderToString`', peer: 'bare', command: 'node dist/server.js', env: { RENDER: 'string' } },
  {
    name: 'buffer',
    label: 'one precomputed buffer (node:http)',
    peer: 'bare',
    command: 'node dist/server.js',
    env: { RENDER: 'buffer' },
    measureJs: false,
  },
  // The ceiling for polysite's page: its 20 KB and its headers (security headers, ETag...)
  // where the buffer above sends 10 KB and one header. What polysite's cached answer
  // costs beyond writing what it writes is the gap between these two rows.
  {
    name: 'buffer-polysite',
    label: "polysite's answer from one precomputed buffer (node:http)",
    peer: 'bare',
    command: 'node dist/server.js',
    env: { RENDER: 'buffer' },
    measureJs: false,
    expect: '<html lang="de"',
    replaysPolysite: true,
  },
  // polysite serves its own docs page at the same path (see bench/peers/README.md).
  {
    name: 'polysite',
    label: '**polysite** (render cache on)',
    command: procfileWeb,
    path: POLYSITE_PATH,
    env: { RENDER_CACHE: 'on' },
    expect: '<html lang="de"',
  },
  {
    name: 'polysite-nocache',
    label: '**polysite**, `RENDER_CACHE=off`',
    command: procfileWeb,
    path: POLYSITE_PATH,
    env: { RENDER_CACHE: 'off' },
    expect: '<html lang="de"',
  },
];

const USAGE =
  'npm run bench:peers -- [--duration 10] [--warmup 3] [--connections 32] [--only name,name] [--rebuild]\n' +
  '       npm run bench:peers -- --pair buffer,polysite [--turns 10] [--turn 3] [--warmup 3] [--connections 32]\n' +
  'A whole run ends with paired turns for the ratios the targets are stated in (--turns, --turn; --skip-pairs leaves them out).';

async function main() {
  const { values: flags } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      pair: { type: 'string' },
      turns: { type: 'string', default: '10' },
      turn: { type: 'string', default: '3' },
      'skip-pairs': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (flags.help) return void console.log(`${USAGE}\ntargets: ${TARGETS.map((target) => target.name).join(', ')}`);
  const settings = { duration: Number(flags.duration), warmup: Number(flags.warmup), connections: Number(flags.connections) };
  const only = flags.only?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !TARGETS.some((target) => target.name === name));
  if (unknown?.length) throw new Error(`unknown target ${unknown.join(', ')}; targets: ${TARGETS.map((target) => target.name).join(', ')}`);
  if (Object.values(settings).some((value) => !(value > 0)))
    throw new Error('--duration, --warmup and --connections take positive numbers');
  const paired = flags.pair?.split(',').map((name) => name.trim());
  const targets = TARGETS.filter((target) => (paired ? paired.includes(target.name) : !only || only.includes(target.name)));

  for (const peer of new Set(targets.flatMap((target) => (target.peer ? [target.peer] : []))))
    await preparePeer(PEERS[peer]!, { fixtureDir: join(PEERS_DIR, 'fixture'), force: flags.rebuild });
  if (targets.some((target) => !target.peer || target.replaysPolysite)) {
    process.stderr.write('\n[polysite] npm run build\n');
    if ((await exited(startGroup('npm run build', { cwd: ROOT_DIR, env: process.env }))) !== 0)
      throw new Error('polysite: npm run build failed');
  }

  // Other work on the machine shows here first: the heading prints it.
  const loadAtStart = loadavg()[0]!;
  // From here on this process is the load generator: keep it off the server's CPU.
  if (canPin) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  mkdirSync(LOG_DIR, { recursive: true });
  const turns = { turns: Number(flags.turns), turn: Number(flags.turn) };
  if (!(turns.turns > 0 && turns.turn > 0)) throw new Error('--turns and --turn take positive numbers');
  if (paired) {
    console.log(
      `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model.trim()}, load average ${loadAtStart.toFixed(1)}; Node ${process.version}`,
    );
    console.log(await pairedTurns(paired, { ...settings, ...turns }));
    return;
  }
  const outcomes: Outcome[] = [];
  for (const target of targets) {
    const label = target.label.replace(/\{([\w-]+)\}/g, (_, pkg: string) => version(target.peer!, pkg).split('.')[0]!);
    process.stderr.write(`\n[${target.name}] measuring ${target.path ?? BENCH_PATH}\n`);
    try {
      outcomes.push({ label, name: target.name, ...(await measure(target, settings)) });
    } catch (error) {
      process.stderr.write(`[${target.name}] failed: ${(error as Error).message}\n`);
      outcomes.push({ label, name: target.name, failed: (error as Error).message.split('\n')[0]! });
    }
  }

  // The ratios the targets are stated in, measured again side by side (see pairedTurns).
  const pairs: string[] = [];
  for (const pair of flags['skip-pairs'] ? [] : PAIRED_RATIOS) {
    if (!pair.every((name) => outcomes.some((outcome) => outcome.name === name && !('failed' in outcome)))) continue;
    process.stderr.write(`\n[${pair.join(' / ')}] paired turns\n`);
    try {
      pairs.push(await pairedTurns(pair, { ...settings, ...turns }));
    } catch (error) {
      process.stderr.write(`[${pair.join(' / ')}] failed: ${(error as Error).message}\n`);
      pairs.push(`${pair[1]} / ${pair[0]}: failed: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  const versions = [
    targets.some((target) => target.peer === 'next') && `Next.js ${version('next', 'next')}`,
    targets.some((target) => target.peer === 'react-router') && `React Router ${version('react-router', 'react-router')}`,
    targets.some((target) => target.peer === 'bare') && `React ${version('bare', 'react')} (bare)`,
  ].filter(Boolean);
  console.log(
    peerTable(outcomes, {
      heading:
        `${new Date().toISOString().slice(0, 10)}, \`${BENCH_PATH}\`, ${settings.connections} connections, ${settings.duration} s after ${settings.warmup} s warm-up` +
        `${canPin ? ', server on CPU 0, load generator on CPU 1' : ' (no taskset: server and load generator share the CPUs)'}; ` +
        `${cpus().length} x ${cpus()[0]?.model.trim()}, Linux ${release()}, load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end; ` +
        `Node ${process.version}; ${versions.join(', ')}`,
      pairs,
    }),
  );
  if (outcomes.some((outcome) => 'failed' in outcome)) process.exitCode = 1;
}

/** Starts the target's server on CPU 0 and checks that it serves the benchmark page. */
async function startTarget(target: Target): Promise<Awaited<ReturnType<typeof startServer>>> {
  const replayed = target.replaysPolysite && (await capturePolysiteAnswer());
  const server = await startServer(target.command, {
    cwd: target.peer ? PEERS[target.peer]!.dir : ROOT_DIR,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...target.env, ...replayed },
    path: target.path ?? BENCH_PATH,
    logFile: join(LOG_DIR, `${target.name}.log`),
    cpu: 0,
  });
  const expected = target.expect ?? BENCH_MARKER;
  if (server.firstBody.includes(expected)) return server;
  await stopGroup(server.group);
  throw new Error(`${target.name} answered 200 without the benchmark page (no ${expected})`);
}

async function measure(target: Target, settings: { duration: number; warmup: number; connections: number }): Promise<Measured> {
  const server = await startTarget(target);
  try {
    process.stderr.write(
      `[${target.name}] first 200 after ${server.coldStartMs} ms; warm-up ${settings.warmup} s, load ${settings.duration} s\n`,
    );
    const load = { url: server.url, connections: settings.connections };
    await autocannon({ ...load, duration: settings.warmup });
    const [cpuBefore, busyBefore, oursBefore] = [cpuSeconds(server.group), busySeconds(), process.cpuUsage()];
    const result = await autocannon({ ...load, duration: settings.duration });
    const cpu = cpuSeconds(server.group) - cpuBefore;
    const busy = busySeconds().map((seconds, index) => seconds - busyBefore[index]!);
    const ours = process.cpuUsage(oursBefore);
    // What other processes took of the two CPUs meanwhile: the server's and this process's own time left out.
    const others = (seconds: number) => Math.max(0, (seconds / settings.duration) * 100);
    const peakRss = peakRssMb(server.group);
    const js = target.measureJs === false ? undefined : await firstLoadJs(server.url);
    return {
      perCpuSecond: cpu > 0 ? result.requests.total / cpu : 0,
      requestsPerSecond: result.requests.total / settings.duration,
      serverCpuPercent: (cpu / settings.duration) * 100,
      p50: result.latency.p50,
      p99: result.latency.p99,
      peakRssMb: peakRss,
      coldStartMs: server.coldStartMs,
      firstLoadJsKb: js && js.gzipBytes / 1024,
      htmlKb: Buffer.byteLength(server.firstBody) / 1024,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      othersCpuPercent: canPin ? [others(busy[0]! - cpu), others(busy[1]! - (ours.user + ours.system) / 1e6)] : undefined,
    };
  } finally {
    await stopGroup(server.group);
  }
}

/**
 * `--pair a,b`: both servers up at once (both pinned to CPU 0, the one not under load idle),
 * then `turns` turns of `turn` seconds each, alternating which goes first: each turn's ratio
 * is b's req per CPU-s over a's just before or after it. Measured minutes apart, the two
 * figures of a ratio meet different states of a shared host (the buffer peer alone gave
 * 31,090-45,252 req per CPU-s in runs of one day); side by side, they meet the same.
 */
async function pairedTurns(
  names: readonly string[],
  settings: { turns: number; turn: number; warmup: number; connections: number },
): Promise<string> {
  const pair = names.map((name) => TARGETS.find((target) => target.name === name));
  if (pair.length !== 2 || pair.some((target) => !target))
    throw new Error(`--pair takes two targets: ${TARGETS.map((target) => target.name).join(', ')}`);
  const [a, b] = pair as [Target, Target];
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    for (const target of [a, b]) servers.push(await startTarget(target));
    const [base, other] = servers.map((server) => ({ url: server.url, cpuSeconds: () => cpuSeconds(server.group) }));
    const turns = await loadInTurns(base!, other!, {
      rounds: settings.turns,
      turnSeconds: settings.turn,
      warmupSeconds: settings.warmup,
      connections: settings.connections,
    });
    return pairedSummary(a.name, b.name, turns, settings);
  } finally {
    await Promise.all(servers.map((server) => stopGroup(server.group)));
  }
}

/** Headers Node writes for each response itself: not part of the answer replayed. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * polysite's answer to the load's request (no compression, as autocannon asks): its body
 * in a file and its headers, less those Node writes per response, as the environment of
 * the buffer peer's replay.
 */
async function capturePolysiteAnswer(): Promise<{ BUFFER_FILE: string; BUFFER_HEADERS: string }> {
  const server = await startServer(procfileWeb, {
    cwd: ROOT_DIR,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    path: POLYSITE_PATH,
    logFile: join(LOG_DIR, 'buffer-polysite-capture.log'),
  });
  try {
    const response = await fetch(server.url, { headers: { 'accept-encoding': 'identity' } });
    if (response.status !== 200) throw new Error(`polysite answered ${response.status} to ${server.url}`);
    const headers = [...response.headers].filter(([name]) => !PER_RESPONSE.has(name)).flat();
    const file = join(LOG_DIR, 'buffer-polysite.html');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return { BUFFER_FILE: file, BUFFER_HEADERS: JSON.stringify(headers) };
  } finally {
    await stopGroup(server.group);
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, async () => {
    process.stderr.write(`\nbench:peers: ${signal}, stopping what it started\n`);
    await Promise.all(liveGroups().map((group) => stopGroup(group, 2000)));
    process.exit(130);
  });
}
process.on('exit', killLiveGroups);

main().catch((error) => {
  process.stderr.write(`bench:peers failed: ${error.message}\n`);
  process.exitCode = 1;
});
