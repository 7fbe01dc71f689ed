/**
 * `npm run dev`: one command, one terminal. Builds into .dev/ (readable bundles,
 * React's development build), runs the server there, and puts a small proxy in
 * front of it on PORT (default 3000) that
 *   - rebuilds and restarts on a change under src/ (about half a second),
 *   - restarts on a change under locales/ (the server compiles content at start),
 *     and rebuilds first when it is an image (the build copies them into the assets),
 *   - tells open tabs to reload through a same-origin event stream,
 *   - shows build and content errors (with file and line) as an overlay page
 *     instead of the site, until the file is fixed,
 *   - holds requests while a rebuild is under way, so nothing stale is served,
 *   - shows the translation status at /_translations (see npm run translations).
 * None of this is in the production build: the proxy and its endpoints live here only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type FSWatcher, watch } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { escapeHtml } from '../src/server/escape-html.ts';
import { loadConfig, ROOT_DIR } from '../src/server/config.ts';
import { build } from './build.ts';
import { isImageFile } from '../src/server/content/images.ts';
import { STATUS_PATH, translationPage } from './translation-page.ts';

export const DEV_PREFIX = '/__polysite_dev';
const DEV_DIR = join(ROOT_DIR, '.dev');
const localesDir = process.env.LOCALES_DIR || join(ROOT_DIR, 'locales');
// Empty is unset, as in the production config: `HOST=` must not mean every interface.
const host = process.env.HOST?.trim() || '127.0.0.1';

/**
 * The names this server answers to. A page on any site can make its visitor's browser
 * send requests here under its own name (DNS rebinding), and then read the site and the
 * error overlay: only requests addressed to this machine by name are answered.
 */
const ALLOWED_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', hostName(host)]);

/** `host` as it appears in a Host header: lower case, an IPv6 address in brackets. */
function hostName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** The name in a Host header without its port; null when the header is not a plain host[:port]. */
function requestedHost(header: string | undefined): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d+)?$/i.exec(header ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

let problem: string | null = null;
let child: ChildProcess | null = null;
let appPort = 0;
let ready: Promise<void> = Promise.resolve();
const listeners = new Set<ServerResponse>();

function say(message: string) {
  process.stdout.write(`polysite dev: ${message}\n`);
}

/** Rebuild (when code changed) and restart the server; requests wait for it. */
function refresh(rebuild: boolean): Promise<void> {
  ready = ready.then(async () => {
    const started = performance.now();
    await stopChild();
    problem = null;
    if (rebuild) {
      try {
        await build({ outDir: DEV_DIR, dev: true });
      } catch (error) {
        problem = describeBuildError(error);
      }
    }
    if (!problem) problem = await startChild();
    if (problem) process.stderr.write(`\n${problem}\n\n`);
    else say(`ready in ${Math.round(performance.now() - started)} ms`);
    for (const listener of listeners) listener.write('data: reload\n\n');
  });
  return ready;
}

/** esbuild errors come with file, line and column: print them the way editors link them. */
function describeBuildError(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
  if (!errors?.length) return `build failed: ${(error as Error).message}`;
  return errors
    .map(({ text, location }) => (location ? `${location.file}:${location.line}:${location.column + 1}: ${text}` : text))
    .join('\n');
}

/** Starts the built server; resolves with null once it listens, or with what it printed when it stops. */
async function startChild(): Promise<string | null> {
  appPort = await freePort();
  const server = spawn(process.execPath, ['--enable-source-maps', join(DEV_DIR, 'server', 'main.js')], {
    cwd: ROOT_DIR,
    env: { ...process.env, PORT: String(appPort), HOST: '127.0.0.1', NODE_ENV: 'development', DIST_DIR: DEV_DIR, LOCALES_DIR: localesDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let stderr = '';
  server.stderr!.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  return new Promise((resolve) => {
    createInterface({ input: server.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"listening"')) resolve(null);
      else if (!line.includes('"msg":"request"')) process.stdout.write(`${line}\n`);
    });
    server.once('exit', () => resolve(stderr.trim().replace(/^polysite: /, '') || 'the server stopped'));
  });
}

function stopChild(): Promise<void> {
  const running = child;
  child = null;
  if (!running || running.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.once('exit', () => resolve());
    running.kill('SIGKILL');
  });
}

const RELOAD_SCRIPT = `new EventSource('${DEV_PREFIX}/events').onmessage = () => location.reload();\n`;

function overlay(message: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Build error · polysite dev</title><link rel="stylesheet" href="${DEV_PREFIX}/overlay.css"></head><body><main id="polysite-dev-overlay"><h1>polysite dev: fix this to see the site</h1><pre>${escapeHtml(message)}</pre><p>The page reloads by itself when the file is fixed.</p></main><script type="module" src="${DEV_PREFIX}/client.js"></script></body></html>`;
}

const OVERLAY_CSS =
  'body{margin:0;background:#1b1f24;color:#f0f3f6;font:16px/1.5 system-ui,sans-serif}main{max-width:60rem;margin:4rem auto;padding:0 1.5rem}h1{color:#ff7b72;font-size:1.3rem}pre{white-space:pre-wrap;background:#0d1117;padding:1rem;border-radius:8px;border-left:4px solid #ff7b72;font:14px/1.5 ui-monospace,monospace}';

async function handle(req: IncomingMessage, res: ServerResponse) {
  const name = requestedHost(req.headers.host);
  if (!name || !ALLOWED_HOSTS.has(name)) {
    const body = `polysite dev answers requests for ${[...ALLOWED_HOSTS].join(', ')} only (set HOST to add a name).\n`;
    return void res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(body);
  }
  const path = req.url ?? '/';
  if (path === `${DEV_PREFIX}/events`) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    return;
  }
  if (path === `${DEV_PREFIX}/client.js`)
    return void res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' }).end(RELOAD_SCRIPT);
  if (path === `${DEV_PREFIX}/overlay.css`)
    return void res.writeHead(200, { 'Content-Type': 'text/css', 'Cache-Control': 'no-store' }).end(OVERLAY_CSS);

  await ready;
  if (problem) {
    return void res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(overlay(problem));
  }
  if (path.split('?')[0] === STATUS_PATH) return sendTranslationStatus(res);
  const headers = { ...req.headers };
  delete headers['accept-encoding']; // plain bodies, so HTML can take the reload script
  delete headers['if-none-match']; // never a 304 for a page that was rebuilt
  const upstream = request({ host: '127.0.0.1', port: appPort, path, method: req.method, headers }, (answer) => {
    const isHtml = /text\/html/.test(String(answer.headers['content-type']));
    if (!isHtml) {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on('data', (chunk) => chunks.push(chunk));
    answer.on('end', () => {
      const html = Buffer.concat(chunks)
        .toString()
        .replace('</body>', `<script type="module" src="${DEV_PREFIX}/client.js"></script></body>`);
      const out = { ...answer.headers, 'cache-control': 'no-store' };
      delete out['content-length'];
      delete out.etag;
      res.writeHead(answer.statusCode ?? 502, out).end(html);
    });
  });
  upstream.on('error', (error) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`dev server: ${error.message}`));
  req.pipe(upstream);
}

/** The translation status of the content as it is now (read afresh: the page is for the one editing it). */
async function sendTranslationStatus(res: ServerResponse) {
  const [{ loadSite }, { loadMessages }, { translationReport }] = await Promise.all([
    import('../src/server/content/site.ts'),
    import('../src/server/content/messages.ts'),
    import('./translation-report.ts'),
  ]);
  const { locales, defaultLocale } = loadConfig({ ...process.env, PORT: '0', LOCALES_DIR: localesDir });
  let html: string;
  try {
    const site = loadSite(localesDir, locales, defaultLocale, loadMessages(localesDir, locales, defaultLocale));
    html = translationPage(translationReport(site, localesDir));
  } catch (error) {
    return void res
      .writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(overlay((error as Error).message));
  }
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(html.replace('</body>', `<script type="module" src="${DEV_PREFIX}/client.js"></script></body>`));
}

function watchTree(dir: string, onChange: (file: string) => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  let changed = '';
  return watch(dir, { recursive: true }, (_event, file) => {
    changed = file ? String(file) : changed;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(changed), 60);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  await refresh(true);
  watchTree(join(ROOT_DIR, 'src'), (file) => {
    say(`src/${file} changed, rebuilding`);
    void refresh(true);
  });
  watchTree(localesDir, (file) => {
    // Images (share images, images/, pictures beside pages) are copied into the hashed assets by the build (scripts/build-images.ts).
    const image = isImageFile(file) || /^[^/]+\/images\//.test(file.split('\\').join('/'));
    say(`${relative(ROOT_DIR, join(localesDir, file)) || file} changed, ${image ? 'rebuilding' : 'reloading content'}`);
    void refresh(image);
  });
  const port = Number(process.env.PORT ?? 3000);
  const proxy = createServer((req, res) => void handle(req, res)).listen(port, host, () => {
    const address = proxy.address() as { address: string; port: number };
    say(`serving http://localhost:${address.port} (listening on ${address.address}; rebuilds on save, reloads the browser)`);
  });
  const stop = async () => {
    await stopChild();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
