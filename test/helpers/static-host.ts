import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/**
 * Named by the checkout too: a second checkout's tests running at the same time have exports
 * of their own builds, which this one must neither read nor remove.
 */
const SHARED_PREFIX = `polysite-shared-export-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}-`;

/**
 * The export of the current build with the test environment and no options, for test
 * files that only read it (nginx, the markup checker, the static host in Chromium). Test
 * files run in processes of their own, two at a time, so it is kept on disk, named by a
 * stamp of `dist/`, made by the first file that asks and replaced when this checkout's build changes.
 * Two files that ask at once each export into a folder of their own and rename it into
 * place; the first rename wins and the other file reads the winner's.
 * A test that writes into an export makes its own with `runExport`.
 */
export async function sharedExport(): Promise<ExportRun> {
  const name = `${SHARED_PREFIX}${buildStamp()}`;
  const out = join(tmpdir(), name);
  const record = join(tmpdir(), `${name}.json`);
  if (existsSync(record)) return JSON.parse(readFileSync(record, 'utf8')) as ExportRun;
  for (const old of readdirSync(tmpdir()).filter((file) => file.startsWith(SHARED_PREFIX) && !file.startsWith(name)))
    rmSync(join(tmpdir(), old), { recursive: true, force: true });
  const run = await runExport();
  if (run.code !== 0) return run;
  try {
    renameSync(run.out, out);
  } catch {
    removeExport(run.out); // another file's export of the same build is in place
    return { ...run, out };
  }
  writeFileSync(record, JSON.stringify({ ...run, out }));
  return { ...run, out };
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
  return listenOnLoopback(server, requests);
}

/** Starts a static host on a free loopback port; closing it also ends its open connections. */
async function listenOnLoopback(server: Server, requests: string[]): Promise<StaticHost> {
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

/** One rule of a `_redirects` file: `from to status[!] [Condition=value]`. */
export type RedirectRule = { from: string; to: string; status: number; forced: boolean; condition: string | null };

export function parseRedirectsFile(text: string): RedirectRule[] {
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [from, to, status, condition] = line.trim().split(/\s+/);
      return { from: from!, to: to!, status: Number.parseInt(status!, 10), forced: status!.endsWith('!'), condition: condition ?? null };
    });
}

/**
 * The host's answer by its `_redirects`, read as Netlify documents it: the first rule whose
 * path (decoded, a trailing slash ignored; `/*` a splat) and condition match; a rule without
 * `!` yields to a file that exists for the path (shadowing). `Language=xx`: the first language of
 * Accept-Language, or its primary subtag, is xx; `Cookie=name`: the cookie is sent.
 * Null: no rule applies, the file (or the host's 404) answers.
 */
export function redirectFor(
  rules: readonly RedirectRule[],
  decoded: string,
  request: { acceptLanguage?: string | undefined; cookie?: string | undefined },
  fileExists: (decoded: string) => boolean,
): { status: number; to: string } | null {
  const path = decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
  const language = (request.acceptLanguage ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
  const cookies = new Set((request.cookie ?? '').split(';').map((pair) => pair.split('=')[0]!.trim()));
  for (const rule of rules) {
    const from = decodeURIComponent(rule.from);
    const splat = from.endsWith('/*') ? from.slice(0, -2) : null;
    const rest = splat !== null && (path === splat || path.startsWith(`${splat}/`)) ? path.slice(splat.length + 1) : null;
    if (splat === null ? path !== from : rest === null) continue;
    if (rule.condition) {
      const [name, value = ''] = rule.condition.split('=');
      if (name === 'Language' && language !== value && language.split('-')[0] !== value) continue;
      if (name === 'Cookie' && !cookies.has(value)) continue;
    }
    if (!rule.forced && fileExists(decoded)) return null;
    return { status: rule.status, to: rest === null ? rule.to : rule.to.replace(':splat', rest) };
  }
  return null;
}

/**
 * A static host that reads both host files as Netlify does (Cloudflare Pages reads the same
 * two files, less the rules by language and cookie): sirv (not ours) serves `/x` from `x.html`
 * or `x/index.html`; `_redirects` decides first (redirectFor); `_headers` adds its headers to
 * every file it serves, by the requested path; a path with no file and no rule gets `/404.html`
 * with status 404. A redirect keeps the request's query, as Netlify's do.
 */
export async function serveHostFiles(dir: string): Promise<StaticHost> {
  const files = sirv(dir, { extensions: ['html'], etag: true, dotfiles: true });
  const headerRules = parseHeadersFile(readFileSync(join(dir, '_headers'), 'utf8'));
  const redirectRules = parseRedirectsFile(readFileSync(join(dir, '_redirects'), 'utf8'));
  const fileExists = (decoded: string) =>
    [decoded, `${decoded.replace(/\/+$/, '')}.html`, `${decoded}/index.html`].some((candidate) => {
      const file = join(dir, candidate);
      return existsSync(file) && statSync(file).isFile();
    });
  const requests: string[] = [];
  const sendPage = (res: ServerResponse, status: number, file: string) => {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(readFileSync(join(dir, file)));
  };
  const server = createServer((req, res) => {
    requests.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    for (const [name, value] of headersFor(headerRules, decoded)) res.setHeader(name, value);
    const rule = redirectFor(
      redirectRules,
      decoded,
      { acceptLanguage: req.headers['accept-language'], cookie: req.headers.cookie },
      fileExists,
    );
    if (rule && rule.status >= 300 && rule.status < 400) {
      res.writeHead(rule.status, { Location: `${rule.to}${url.search}` }).end();
    } else if (rule) {
      sendPage(res, rule.status, rule.to.endsWith('.html') ? rule.to : `${rule.to}.html`);
    } else {
      files(req, res, () => sendPage(res, 404, '404.html'));
    }
  });
  return listenOnLoopback(server, requests);
}
