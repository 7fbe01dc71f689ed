import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sirv from 'sirv';
import { ROOT } from './server.ts';

export type ExportRun = { out: string; code: number | null; stdout: string; stderr: string };

/**
 * Runs the built export (`node dist/server/export.js`, what `npm run export` runs
 * after building) into a new temporary folder (or `--out` among `args`), with the
 * environment the test servers get (PUBLIC_URL https://example.test) plus `env`.
 */
export function runExport(env: Record<string, string> = {}, args: string[] = []): Promise<ExportRun> {
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1]! : mkdtempSync(join(tmpdir(), 'polysite-export-'));
  const child = spawn(process.execPath, ['dist/server/export.js', ...(args.includes('--out') ? args : ['--out', out, ...args])], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PUBLIC_URL: 'https://example.test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ out, code, stdout, stderr });
    }),
  );
}

const SHARED_PREFIX = 'polysite-shared-export-';

/**
 * The export of the current build with the test environment and no options, for test
 * files that only read it (nginx, the markup checker, the static host in Chromium). Test
 * files run one at a time in processes of their own, so it is kept on disk, named by a
 * stamp of `dist/`, made by the first file that asks and replaced when the build changes.
 * A test that writes into an export makes its own with `runExport`.
 */
export async function sharedExport(): Promise<ExportRun> {
  const name = `${SHARED_PREFIX}${buildStamp()}`;
  const record = join(tmpdir(), `${name}.json`);
  if (existsSync(record)) return JSON.parse(readFileSync(record, 'utf8')) as ExportRun;
  for (const old of readdirSync(tmpdir()).filter((file) => file.startsWith(SHARED_PREFIX)))
    rmSync(join(tmpdir(), old), { recursive: true, force: true });
  const out = join(tmpdir(), name);
  mkdirSync(out);
  const run = await runExport({}, ['--out', out]);
  if (run.code === 0) writeFileSync(record, JSON.stringify(run));
  return run;
}

/** Every file of `dist/` by path, size and modification time: a new build gives a new stamp. */
function buildStamp(): string {
  const dist = join(ROOT, 'dist');
  const hash = createHash('sha256');
  for (const file of (readdirSync(dist, { recursive: true }) as string[]).sort()) {
    const { size, mtimeMs } = statSync(join(dist, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** One rule of a `_headers` file (Netlify, Cloudflare Pages): a path pattern and the headers it adds. */
export type HeaderRule = { pattern: string; headers: [string, string][] };

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    rules.at(-1)!.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Every header the rules give a path, as both hosts apply them: each matching rule adds its headers (a splat matches any rest). */
export function headersFor(rules: readonly HeaderRule[], path: string): [string, string][] {
  return rules
    .filter(({ pattern }) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern))
    .flatMap((rule) => rule.headers);
}

export type StaticHost = { url: string; requests: string[]; close(): Promise<void> };

/**
 * A static file server for an exported folder, as the hosts the export targets are
 * set up: sirv (not ours) serves `/x` from `x.html`, the headers of `_headers` go on
 * every answer, and a missing path gets the not-found page of the locale it is under
 * (`<locale>/404.html`), else `404.html`, with status 404. Nothing else: no redirect,
 * no negotiation, no query handling (a static host has none).
 */
export async function serveStatic(dir: string): Promise<StaticHost> {
  const files = sirv(dir, { extensions: ['html'], etag: true });
  const rules = parseHeadersFile(readFileSync(join(dir, '_headers'), 'utf8'));
  const requests: string[] = [];
  const notFound = (req: IncomingMessage, res: ServerResponse) => {
    const first = decodeURIComponent(new URL(req.url!, 'http://x').pathname.split('/')[1] ?? '');
    const page =
      first && !first.includes('.') && existsSync(join(dir, first, '404.html')) ? join(dir, first, '404.html') : join(dir, '404.html');
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(readFileSync(page));
  };
  const server = createServer((req, res) => {
    requests.push(req.url!);
    const path = new URL(req.url!, 'http://x').pathname;
    for (const [name, value] of headersFor(rules, path)) res.setHeader(name, value);
    files(req, res, () => notFound(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Removes an export folder made for a test. */
export function removeExport(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
