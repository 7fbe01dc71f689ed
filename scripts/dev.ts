/**
 * `npm run dev`: one command, one terminal. Builds into .dev/ (readable bundles,
 * React's development build), runs the dev server there (scripts/dev-server.ts), and
 * puts a small proxy in front of it on PORT (default 3000) that
 *   - watches src/ and the locales with one watcher kept for the session,
 *   - rebuilds on a change under src/: esbuild makes again the bundles that import a saved
 *     file (incrementally: each bundle's context is kept for the session; the packages the
 *     browser's code imports are bundled once, apart, see dev-packages.ts). A new server
 *     bundle starts a server waiting with its packages loaded (dev-spare.mjs) before the
 *     browser's bundle is done, and it takes the pages the last one compiled from the page
 *     cache, unless the content's compiler changed; else the running server reads the new
 *     build and makes its site again,
 *   - has the server reload its content in place on a change under locales/ (it
 *     compiles the pages that changed and reuses the rest), and rebuilds and
 *     restarts when it is an image (the build copies them into the assets),
 *   - tells open tabs through a same-origin event stream: a tab shows an edit of pages in
 *     place (its page data rendered again, see RELOAD_SCRIPT) and reloads for anything else,
 *   - writes the address the author opened where pages name the site's own
 *     address (canonical, hreflang, og:url, feeds, sitemap),
 *   - shows build and content errors (with file and line) as an overlay page
 *     instead of the site, until the file is fixed,
 *   - holds requests while a rebuild or reload is under way, so nothing stale is served,
 *   - shows the translation status at /_translations (see npm run translations).
 * None of this is in the production build: the proxy and its endpoints live here only.
 */
import { versionsDirOf } from '../src/server/content/versions.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { type FSWatcher, watch } from 'chokidar';
import * as esbuild from 'esbuild';
import { escapeHtml } from '../src/server/escape-html.ts';
import { dataUrl, ROOT_ELEMENT_ID } from '../src/routes/page-data.ts';
import { loadConfig, ROOT_DIR } from '../src/server/config.ts';
import { type Bundler, build, CONTENT_CACHE_DIR, cacheWanted } from './build.ts';
import { COMPILER_GRAPH, compilerCodeHash } from './compiler-code.ts';
import { bundlePackages, type Packages } from './dev-packages.ts';
import { pruneHighlightCache } from '../src/server/content/markdown/highlight-cache.ts';
import { isImageFile } from '../src/server/content/images.ts';
import type { FromDevServer, ToDevServer } from './dev-server.ts';
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

/**
 * Where the dev server keeps the pages it compiled, for the next one after a restart
 * (dev-server.ts); off with `--no-cache` or POLYSITE_NO_CACHE, as the build's caches.
 * One pack per content folder, the folder bounded in bytes.
 */
const PAGE_CACHE_DIR = cacheWanted(process.argv, process.env) ? join(CONTENT_CACHE_DIR, 'dev-pages') : null;
const PAGE_CACHE_BYTES = 256 * 1024 * 1024;
/**
 * The hash of the content compiler's code (compiler-code.ts), taken at each rebuild: the
 * key of every page kept, so a change to the compiler compiles every page again. Null when
 * it cannot be taken (a file of it does not parse): the server then compiles everything.
 */
let compilerCode: string | null = null;

/**
 * esbuild with one context per bundle, kept for the session: a rebuild parses again only
 * the files that changed, not React and the rest. The options of a bundle are the same at
 * every build; other options get a context of their own. A context's rebuilds run one
 * after another: esbuild gives a rebuild asked while another runs that one's result, made
 * from the files as they were before the save (a build that failed on one bundle returns
 * while the others still run).
 */
const contexts = new Map<string, { context: Promise<esbuild.BuildContext>; last: Promise<esbuild.BuildResult | null> }>();
const incremental = (async (options: esbuild.BuildOptions) => {
  const key = JSON.stringify(options);
  let kept = contexts.get(key);
  if (!kept) {
    const context = esbuild.context(options);
    kept = { context, last: Promise.resolve(null) };
    contexts.set(key, kept);
    context.catch(() => contexts.delete(key));
  }
  const { context, last } = kept;
  const next = last.catch(() => {}).then(async () => (await context).rebuild());
  kept.last = next;
  return next;
}) as Bundler;

/**
 * The bundler of one rebuild of the site's bundles: a bundle none of whose files changed
 * (its last build's inputs, from its metafile) is not made again, its last result is
 * given as it was. `changed`: the files under src/ saved since the last rebuild
 * (absolute paths); null when that is not known or a file was added or removed there
 * (it may now be resolved in place of another): every bundle is made again.
 */
function bundlerFor(changed: ReadonlySet<string> | null): { bundler: Bundler; made: Set<string> } {
  const files = changed && realPaths([...changed]);
  /** The platforms of the bundles made again (`browser`, `node`). */
  const made = new Set<string>();
  const bundler = (async (options: esbuild.BuildOptions) => {
    const browser = (options.platform ?? 'browser') === 'browser';
    const packages = browser ? await packagesFor(options) : null;
    const withInputs = { ...(packages?.options ?? options), metafile: true };
    const kept = contexts.get(JSON.stringify(withInputs));
    const last = await kept?.last.catch(() => null);
    const inputs = last && inputsOf(last);
    let result = last;
    if (!files || !inputs || files.some((file) => inputs.has(file))) {
      made.add(options.platform ?? 'browser');
      result = await incremental(withInputs);
    }
    // The packages' files are written with the browser's bundle (the build replaces the folder).
    return packages ? { ...result!, outputFiles: [...(result!.outputFiles ?? []), ...packages.files] } : result!;
  }) as Bundler;
  return { bundler, made };
}

/**
 * The packages the browser's code imports, bundled once (dev-packages.ts), with the options
 * that import them. Made again when the code imports a package they lack, or when npm
 * changed node_modules (its lock file there); tried again at the next rebuild when the
 * project's code did not build (that build reports why, with the packages bundled in).
 */
let packages: { made: Promise<Packages | null>; lock: number } | null = null;

async function packagesFor(options: esbuild.BuildOptions): Promise<Packages | null> {
  const lock = lockTime();
  const last = packages && (await packages.made);
  if (!packages || !last || last.missing.size > 0 || packages.lock !== lock) {
    const made = bundlePackages(options, options.outdir!).catch(() => null);
    packages = { made, lock };
  }
  return packages.made;
}

/** When npm last changed node_modules (0: not known). */
function lockTime(): number {
  try {
    return statSync(join(ROOT_DIR, 'node_modules', '.package-lock.json')).mtimeMs;
  } catch {
    return 0;
  }
}

/** A build's input files, by real path (esbuild names them as resolved, a symlinked folder perhaps by its target). */
const inputsKept = new WeakMap<esbuild.BuildResult, Set<string>>();

function inputsOf(result: esbuild.BuildResult): Set<string> | null {
  if (!result.metafile) return null;
  let inputs = inputsKept.get(result);
  if (!inputs) {
    inputs = new Set(realPaths(Object.keys(result.metafile.inputs).map((name) => resolve(ROOT_DIR, name))) ?? []);
    inputsKept.set(result, inputs);
  }
  return inputs;
}

/** The real paths of `files`; a file gone meanwhile is named as given. */
function realPaths(files: readonly string[]): string[] {
  return files.map((file) => {
    try {
      return realpathSync(file);
    } catch {
      return file;
    }
  });
}

let problem: string | null = null;
let child: ChildProcess | null = null;
let appPort = 0;
/** Requests wait for this: the work under way (a rebuild, a restart, a content reload), if any. */
let ready: Promise<void> = Promise.resolve();
const listeners = new Set<ServerResponse>();

function say(message: string) {
  process.stdout.write(`polysite dev: ${message}\n`);
}

/**
 * What a batch of saves asks for: `rebuild` (code, or an image the build copies) rebuilds
 * and restarts the server; `restart` restarts it; neither, the server reloads its content
 * in place.
 */
type Work = { rebuild: boolean; restart: boolean };
let queued: Work | null = null;
/**
 * What changed under the content since the server last heard (absolute paths), for it to
 * read those files again and trust the rest as it read them; null after the watcher
 * reported an error, when the server checks every file.
 */
let changedFiles: Set<string> | null = new Set();
let running: Promise<void> | null = null;

/** Queues `work`, merged with what is queued already; a batch saved while work runs is done right after it. */
function schedule(work: Work): Promise<void> {
  queued = queued ? { rebuild: queued.rebuild || work.rebuild, restart: queued.restart || work.restart } : work;
  running ??= (async () => {
    while (queued) {
      const next = queued;
      queued = null;
      await perform(next);
    }
    running = null;
  })();
  ready = running;
  return running;
}

async function perform({ rebuild, restart }: Work): Promise<void> {
  const started = performance.now();
  // Taken now: what changes from here on is queued and told with the next reload.
  const changed = changedFiles ? [...changedFiles] : undefined;
  changedFiles = new Set();
  // Only pages changed, and the server keeps running: open tabs can take the new page data in place.
  const inPlace = !rebuild && !restart && child !== null && !!changed?.length && changed.every((file) => file.endsWith('.md'));
  const hadProblem = problem !== null;
  /** Said when a rebuild made one bundle only, or kept the server running. */
  let partly = '';
  if (rebuild || restart || !child) {
    problem = null;
    // The server runs on, told to read the new build, when its bundle is the one it runs.
    const running = rebuild && !restart ? child : null;
    // Else stopped while esbuild works: requests wait for the new server anyway (see `ready`).
    const stopped = running ? Promise.resolve() : stopChild();
    let kept = false;
    // The next server, started on its own bundle while esbuild still makes the browser's.
    let starting: Promise<string | null> | null = null;
    if (rebuild) {
      const changedSrc = changedCode;
      changedCode = new Set();
      const code = takeCompilerCode(changedSrc);
      const codeBefore = compilerCode;
      const { bundler, made } = bundlerFor(changedSrc);
      const building = build({
        outDir: DEV_DIR,
        dev: true,
        bundler,
        takeServer: async (files) => {
          compilerCode = await code;
          if (running && child === running && files === serverFiles && compilerCode === codeBefore) {
            kept = true;
            return;
          }
          await Promise.all([stopped, stopChild()]);
          writeFiles(join(DEV_DIR, 'server'), files);
          serverFiles = files;
          starting = startChild(building);
        },
      });
      try {
        await building;
      } catch (error) {
        problem = describeBuildError(error);
      }
      compilerCode = await code;
      const what =
        made.size === 2 ? '' : made.has('node') ? "the server's code only" : made.has('browser') ? "the browser's code only" : 'no code';
      partly = [what, kept && 'the server runs on'].filter(Boolean).join(', ');
    }
    await stopped;
    if (problem) {
      // A bundle failed: no server runs on a build that is not whole (the fix starts one).
      await stopChild();
      await starting;
    } else if (kept) problem = await askChild({ type: 'built', ...(changed && { changed }) });
    else problem = await (starting ?? startChild());
  } else {
    problem = await askChild({ type: 'content', ...(changed && { changed }) });
  }
  if (problem) process.stderr.write(`\n${problem}\n\n`);
  else
    say(
      `${rebuild ? 'rebuilt' : restart ? 'restarted' : 'reloaded'} in ${Math.round(performance.now() - started)} ms${reusedNote()}${partly && `; ${partly}`}`,
    );
  announce(inPlace && !problem && !hadProblem);
}

/** Replaces the files in `dir` with `files` (esbuild's, named by absolute path). */
function writeFiles(dir: string, files: readonly esbuild.OutputFile[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
}

/** The server bundle's files the last server was started on (the bundler gives the same array when it did not make it again). */
let serverFiles: esbuild.OutputFile[] | null = null;

/** The compiler's files (compiler-code.ts's import graph, as esbuild names them) as last resolved; null: not yet. */
let compilerFiles: string[] | null = null;
/** The files under src/ changed since the last rebuild (absolute paths); null after a watcher error. */
let changedCode: Set<string> | null = new Set();

/**
 * The compiler's code hash: its files' contents, hashed at every rebuild. The graph itself
 * (which files) is resolved again only when a file in it changed, since only a file in it
 * can import another; esbuild's graph build then runs incrementally beside the bundles'.
 */
async function takeCompilerCode(changed: ReadonlySet<string> | null): Promise<string | null> {
  if (!PAGE_CACHE_DIR) return null;
  try {
    const known = compilerFiles && new Set(compilerFiles);
    if (!known || !changed || [...changed].some((file) => known.has(relative(ROOT_DIR, file).split(sep).join('/')))) {
      const { metafile } = await incremental(COMPILER_GRAPH);
      compilerFiles = Object.keys(metafile.inputs).sort();
    }
    return compilerCodeHash(compilerFiles!);
  } catch {
    // A file that does not parse (the bundles' build says where) or is gone: resolved again next time.
    compilerFiles = null;
    return null;
  }
}

/** esbuild errors come with file, line and column: print them the way editors link them. */
function describeBuildError(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
  if (!errors?.length) return `build failed: ${(error as Error).message}`;
  return errors
    .map(({ text, location }) => (location ? `${location.file}:${location.line}:${location.column + 1}: ${text}` : text))
    .join('\n');
}

/**
 * The public address the server is told: the proxy puts the address the author opened
 * in its place (canonical, hreflang, og:url, feeds, sitemap), whatever port the server has.
 */
const PUBLIC_URL_MARK = 'http://polysite-dev.invalid';

/** How many pages a server started since `perform` began took from the page cache (dev-server.ts). */
let startedWith: { pages: number; of: number } | undefined;

function reusedNote(): string {
  const reused = startedWith;
  startedWith = undefined;
  return reused ? `, ${reused.pages} of ${reused.of} compiled pages reused` : '';
}

/** What the server answers to the load under way; null when it did not answer before it stopped. */
let answer: ((message: FromDevServer | null) => void) | null = null;

/**
 * Starts the server (scripts/dev-server.ts) and waits for its first load: null when it
 * serves, else the content's mistakes or what it printed when it stopped. `built`: when
 * the rest of the build is written (the server compiles the content meanwhile, and makes
 * the site once it is told); the server is not told when it fails.
 */
async function startChild(built: Promise<unknown> = Promise.resolve()): Promise<string | null> {
  const server = spare?.exitCode === null && spare.connected ? spare : startSpare();
  spare = null;
  const kept = PAGE_CACHE_DIR && compilerCode && { POLYSITE_DEV_PAGE_CACHE: PAGE_CACHE_DIR, POLYSITE_COMPILER_CODE: compilerCode };
  server.send({ type: 'start', env: kept || {}, unset: kept ? [] : KEPT_KEYS });
  child = server;
  let stderr = '';
  server.stderr!.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  createInterface({ input: server.stdout! }).on('line', (line) => {
    if (!line.includes('"msg":"request"')) process.stdout.write(`${line}\n`);
  });
  server.on('message', (message: FromDevServer) => {
    if (message.type !== 'listening') return answer?.(message);
    appPort = message.port;
    // Told once it listens: its own handlers are set by then (a message before would reach dev-spare.mjs only).
    built.then(
      () => server.connected && server.send({ type: 'built' } satisfies ToDevServer),
      () => {},
    );
  });
  server.once('exit', () => {
    if (answer) return answer(null);
    if (child !== server) return;
    // It stopped by itself, between loads: say so until the next save starts it again.
    child = null;
    problem = stderr.trim() || 'the server stopped';
    announce();
  });
  const first = await nextAnswer();
  if (first?.type === 'ready') startedWith = first.reused;
  // The next one at once, so that it has loaded its packages by the next save: while the tab
  // loads the page again, not while the next save's bundles are made and this one waits for it.
  if (!stopping) spare ??= startSpare();
  return first ? settle(first) : stderr.trim().replace(/^polysite: /, '') || 'the server stopped';
}

/** What the server is told by a variable of its own only when the page cache is on. */
const KEPT_KEYS = ['POLYSITE_DEV_PAGE_CACHE', 'POLYSITE_COMPILER_CODE'];
let stopping = false;

/**
 * The next server (dev-spare.mjs): a process that has loaded the packages the server's
 * bundle imports and waits to be told to start. One waits while the author works, so a
 * restart after a save under src/ does not load React, Koa and the compilers again.
 */
let spare: ChildProcess | null = null;

function startSpare(): ChildProcess {
  const waiting = spawn(
    process.execPath,
    ['--enable-source-maps', fileURLToPath(new URL('./dev-spare.mjs', import.meta.url)), join(DEV_DIR, 'server')],
    {
      cwd: ROOT_DIR,
      env: {
        ...withoutKeys(process.env, KEPT_KEYS),
        NODE_ENV: 'development',
        DIST_DIR: DEV_DIR,
        LOCALES_DIR: localesDir,
        PUBLIC_URL: PUBLIC_URL_MARK,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  // Until it serves, what it prints is not the server's, and a spare that died is replaced when needed.
  waiting.stdout!.resume();
  waiting.stderr!.resume();
  waiting.on('error', () => {});
  return waiting;
}

function withoutKeys(env: NodeJS.ProcessEnv, keys: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !keys.includes(key)));
}

function nextAnswer(): Promise<FromDevServer | null> {
  return new Promise((resolve) => {
    answer = (message) => {
      answer = null;
      resolve(message);
    };
  });
}

/** Tells the running server to reload its content; resolves as startChild does. */
async function askChild(message: ToDevServer): Promise<string | null> {
  const answered = nextAnswer();
  child!.send(message);
  const reply = await answered;
  return reply ? settle(reply) : 'the server stopped';
}

/** A load's outcome: null when the site is served, else what to show. A new set of locales restarts the server. */
async function settle(reply: FromDevServer): Promise<string | null> {
  if (reply.type === 'problem') return reply.message;
  if (reply.type !== 'restart') return null;
  say(`${reply.reason}, restarting`);
  await stopChild();
  return startChild();
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

/**
 * What the site is at: one more after each rebuild, restart or reload. A page carries
 * the version it was made from and updates when the event stream names another, also
 * when it connects: a save that lands while the page is loading is not missed.
 * `fullAt`: the last version a tab must load in full to show (code, messages, images, an
 * error or its fix); a tab made from that version or a later one only missed pages' edits,
 * and takes its page's new data in place (see RELOAD_SCRIPT).
 */
let version = 0;
let fullAt = 0;

function announce(pagesOnly = false): void {
  version++;
  if (!pagesOnly) fullAt = version;
  for (const listener of listeners) listener.write(siteEvent());
}

const siteEvent = () => `data: ${version} ${fullAt}\n\n`;

/** The reload script's tag, with the version the page is made from. */
const reloadTag = () => `<script type="module" src="${DEV_PREFIX}/client.js?v=${version}"></script>`;

/** A page-data URL is `${DATA_URL[0]}<build><path>${DATA_URL[1]}` (routes/page-data.ts). */
const DATA_URL = dataUrl('\0', '/\0').split('\0/\0');

/**
 * The tab's side of the event stream. A change the tab can only show by loading again
 * (see `fullAt`) reloads it. An edit of pages fetches the page data of the page on
 * screen, as a client navigation does, and hands it to the page's store (found through
 * React's own fiber of the root's first element: the app exposes nothing for this in
 * production): React renders the new text in place, the scroll position and the head
 * follow as after a navigation. From then on the client's cache of page data may hold
 * pages from before the edit, so a navigation in this tab loads the document instead.
 * Whatever does not fit (not hydrated yet, a redirect, another build) reloads.
 */
const RELOAD_SCRIPT = `let made = Number(new URL(import.meta.url).searchParams.get('v'));
let updates = Promise.resolve();
const store = () => {
  const element = document.getElementById(${JSON.stringify(ROOT_ELEMENT_ID)})?.firstElementChild;
  const key = element && Object.keys(element).find((name) => name.startsWith('__reactFiber$'));
  for (let fiber = key && element[key]; fiber; fiber = fiber.return) {
    const found = fiber.memoizedProps?.store;
    if (typeof found?.set === 'function' && typeof found.getSnapshot === 'function') return found;
  }
  return null;
};
let navigations = null;
async function update(now) {
  if (now <= made) return;
  const found = document.documentElement.hasAttribute('data-hydrated') && !location.search ? store() : null;
  if (!found) return location.reload();
  const { page, intl } = found.getSnapshot();
  const answer = await fetch(${JSON.stringify(DATA_URL[0])} + page.build + location.pathname + ${JSON.stringify(DATA_URL[1])}, { cache: 'no-store' });
  const body = answer.status === 200 || answer.status === 404 ? await answer.json() : null;
  if (body?.page?.build !== page.build) return location.reload();
  if (!navigations) {
    navigations = found.set;
    found.set = (next) => (next.arrival ? location.reload() : navigations(next));
  }
  navigations({ page: body.page, intl, arrival: { scroll: [scrollX, scrollY], hash: '' } });
  made = now;
}
new EventSource('${DEV_PREFIX}/events').onmessage = (event) => {
  const [now, full] = event.data.split(' ').map(Number);
  if (now === made) return;
  if (full > made) return location.reload();
  updates = updates.then(() => update(now)).catch(() => location.reload());
};
`;

function overlay(message: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Build error · polysite dev</title><link rel="stylesheet" href="${DEV_PREFIX}/overlay.css"></head><body><main id="polysite-dev-overlay"><h1>polysite dev: fix this to see the site</h1><pre>${escapeHtml(message)}</pre><p>The page reloads by itself when the file is fixed.</p></main>${reloadTag()}</body></html>`;
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
    res.write(siteEvent());
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    return;
  }
  if (path.split('?')[0] === `${DEV_PREFIX}/client.js`)
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
  // The Host header passed the check above: a plain name and port, safe to write into a page.
  const origin = `http://${req.headers.host}`;
  const upstream = request({ host: '127.0.0.1', port: appPort, path, method: req.method, headers }, (answer) => {
    const type = String(answer.headers['content-type']);
    // Text that may carry the site's public address (pages, page data, feeds, sitemap, robots.txt).
    // A content-hashed asset (scripts, styles, messages, search indexes) carries none and is
    // passed on as it is, cache headers and all: a reload after a save takes them from the
    // browser's cache instead of asking for every script again.
    const immutable = /\bimmutable\b/.test(String(answer.headers['cache-control']));
    if (immutable || !/^(text\/|application\/(json|xml|atom\+xml))/.test(type)) {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on('data', (chunk) => chunks.push(chunk));
    answer.on('end', () => {
      let text = Buffer.concat(chunks).toString().replaceAll(PUBLIC_URL_MARK, origin);
      if (type.startsWith('text/html')) text = text.replace('</body>', `${reloadTag()}</body>`);
      const out = { ...answer.headers, 'cache-control': 'no-store' };
      delete out['content-length'];
      delete out.etag;
      res.writeHead(answer.statusCode ?? 502, out).end(text);
    });
  });
  upstream.on('error', (error) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`dev server: ${error.message}`));
  req.pipe(upstream);
}

/** The translation status of the content as it is now (read afresh: the page is for the one editing it). */
async function sendTranslationStatus(res: ServerResponse) {
  const [{ loadContent }, { translationReport }] = await Promise.all([
    import('../src/server/content/load-content.ts'),
    import('./translation-report.ts'),
  ]);
  const { locales, defaultLocale } = loadConfig({ ...process.env, PORT: '0', LOCALES_DIR: localesDir });
  let html: string;
  try {
    const { site } = loadContent(localesDir, locales, defaultLocale);
    html = translationPage(translationReport(site, localesDir));
  } catch (error) {
    return void res
      .writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(overlay((error as Error).message));
  }
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(html.replace('</body>', `${reloadTag()}</body>`));
}

/** How long a batch of saves is gathered: an editor writes a file and its backup, `git checkout` many files. */
const BATCH_MS = 15;

/**
 * chokidar passes on one change of a file per 50 ms and drops the others (its throttle,
 * `_throttle(EV.CHANGE, path, 50)` in chokidar 5): a file saved again within that (a
 * formatter right after the editor's save, a script writing twice) would keep its first
 * version. So each batch's files are looked at again once that time has passed, and those
 * that changed since are seen as changed.
 */
const LOOK_AGAIN_MS = 60;

/** A file's state as far as a save changes it: its inode (an atomic save's new file), size and time; a folder's is left alone. */
function fileState(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return stats.isDirectory() ? null : `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  } catch {
    return 'absent';
  }
}

/**
 * One watcher for src/ and the locales, kept for the whole session. chokidar watches
 * every folder and file it finds, follows atomic saves (a new file renamed over the
 * old one, as `sed -i` and many editors save) and new folders, and reports deletions.
 */
function watchSources(onBatch: (files: string[]) => void): FSWatcher {
  let batch = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  // The docs' versions beside the content folder are content too (docs/versions.md): an edit reloads it.
  const watcher = watch([join(ROOT_DIR, 'src'), localesDir, versionsDirOf(localesDir)], {
    ignoreInitial: true,
    // Editors' swap and backup files, and hidden folders (.git, .DS_Store).
    ignored: (path) => /^\.|~$|\.swp$/.test(basename(path)),
  });
  const seen = (event: string, path: string) => {
    if (!matters(event, path)) return;
    changedFiles?.add(resolve(path));
    if (!relative(join(ROOT_DIR, 'src'), path).startsWith('..')) {
      // A file added or removed may be resolved in place of another: every bundle is made again.
      if (event === 'change') changedCode?.add(resolve(path));
      else changedCode = null;
    }
    batch.add(path);
    if (timer === undefined)
      timer = setTimeout(() => {
        const files = [...batch];
        batch = new Set();
        timer = undefined;
        const states = files.map((file) => [file, fileState(file)] as const);
        setTimeout(() => {
          for (const [file, before] of states) {
            const now = fileState(file);
            if (before === null || now === before) continue;
            seen(now === 'absent' ? 'unlink' : before === 'absent' ? 'add' : 'change', file);
          }
        }, LOOK_AGAIN_MS).unref();
        onBatch(files);
      }, BATCH_MS);
  };
  watcher.on('all', seen);
  watcher.on('error', (error) => {
    // An event may have been lost: the next reload checks every file.
    changedFiles = null;
    changedCode = null;
    say(`watching: ${(error as Error).message}`);
  });
  return watcher;
}

/**
 * Whether a change can change the site: not the temporary file an atomic save writes
 * before renaming it (`sedAbC123`, `about.md.tmp`), whose rename is seen on its own.
 */
function matters(event: string, path: string): boolean {
  if (event === 'addDir' || event === 'unlinkDir') return true;
  const under = relative(localesDir, path);
  if (!under.startsWith('..')) return /\.(md|json)$/.test(path) || isImage(path);
  return /\.[a-z0-9]+$/i.test(basename(path)) && !/\.(tmp|temp|bak)$/i.test(path);
}

/** Images (share images, images/, pictures beside pages) are copied into the hashed assets by the build (scripts/build-images.ts). */
function isImage(file: string): boolean {
  const local = relative(localesDir, file).split('\\').join('/');
  return !local.startsWith('..') && (isImageFile(local) || /^[^/]+\/images\//.test(local));
}

/** What a batch of changed files asks for (see Work). */
function workFor(files: readonly string[]): Work {
  const srcDir = join(ROOT_DIR, 'src');
  const rebuild = files.some((file) => !relative(srcDir, file).startsWith('..') || isImage(file));
  return { rebuild, restart: false };
}

async function main() {
  if (PAGE_CACHE_DIR) pruneHighlightCache(PAGE_CACHE_DIR, PAGE_CACHE_BYTES);
  // Watching starts first: a file saved during the first build is not missed.
  const watcher = watchSources((files) => {
    const shown = files.map((file) => relative(ROOT_DIR, file) || file);
    const work = workFor(files);
    say(
      `${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ` and ${shown.length - 3} more` : ''} changed, ${work.rebuild ? 'rebuilding' : 'reloading content'}`,
    );
    void schedule(work);
  });
  await Promise.all([schedule({ rebuild: true, restart: false }), new Promise<void>((resolve) => watcher.once('ready', () => resolve()))]);
  const port = Number(process.env.PORT ?? 3000);
  const proxy = createServer((req, res) => void handle(req, res)).listen(port, host, () => {
    const address = proxy.address() as { address: string; port: number };
    const url = `http://localhost:${address.port}`;
    say(`serving ${url} (listening on ${address.address}; reloads the browser on save); translation status: ${url}${STATUS_PATH}`);
  });
  const stop = async () => {
    stopping = true;
    spare?.kill('SIGKILL');
    await stopChild();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
