// `npm run build`: the client bundle (browser, minified, content-hashed), the
// server bundle (node), the asset manifest, and a content check that fails the
// build on a broken link, bad front matter or a message that does not parse; the
// compiled content goes to dist/content.json for a fast start, and each locale's
// search index to dist/client/assets/search-<locale>-<hash>.json. Each locale's share
// image and pictures (scripts/build-images.ts) are copied into the assets with their size.
// Prints the gzip size of every client file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { availableParallelism } from 'node:os';
import * as esbuild from 'esbuild';
import { ROOT_DIR, loadConfig } from '../src/server/config.ts';
import { contentCompiler, moveIndex } from './build-content.ts';
import { type Compressed, compressAsset } from './asset-compression.ts';
import { MANIFEST_FILE, type Manifest } from '../src/server/site/manifest.ts';
import { compactIndexPath } from '../src/server/site/search-indexes.ts';
import { contentFingerprint } from '../src/server/content/snapshot.ts';
import { contentFiles } from '../src/server/content/content-files.ts';
import { buildImages } from './build-images.ts';
import { CRITICAL_CSS_BUDGET, FIRST_LOAD_JS_BUDGET } from './first-load-budget.ts';
import { pruneHighlightCache } from '../src/server/content/markdown/highlight-cache.ts';
import { storedCompilerCodeHash } from './compiler-code.ts';
import { CACHE_ROOT } from './cache-root.ts';
import { type Bundles, keepBundles, restoreBundles } from './bundle-cache.ts';

/**
 * Highlighted code blocks kept between builds (highlight-cache.ts): a rebuild highlights
 * only the blocks that changed. Bounded on disk; the oldest blocks go first.
 */
export const HIGHLIGHT_CACHE_DIR = join(CACHE_ROOT, 'polysite', 'highlight');
const HIGHLIGHT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Compiled pages and search indexes kept between builds (page-cache.ts, index-cache.ts):
 * a rebuild compiles only the pages whose inputs changed. Delete the folder, run
 * `npm run build -- --no-cache` or set POLYSITE_NO_CACHE=1 to build from nothing.
 * Bounded on disk; the entries least recently used go first.
 */
export const CONTENT_CACHE_DIR = join(CACHE_ROOT, 'polysite', 'content');
const CONTENT_CACHE_BYTES = 1024 * 1024 * 1024;

/** The last build's bundles (bundle-cache.ts): a build where no code changed does not run esbuild. */
const BUNDLE_CACHE_DIR = join(CACHE_ROOT, 'polysite', 'bundles');

/** Whether this build may use the caches: not with `--no-cache` or POLYSITE_NO_CACHE set (to anything but 0 or empty). */
export function cacheWanted(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return !argv.includes('--no-cache') && !(env.POLYSITE_NO_CACHE && env.POLYSITE_NO_CACHE !== '0');
}

/** What runs each esbuild build: esbuild.build by default; `npm run dev` passes one that rebuilds incrementally. */
export type Bundler = typeof esbuild.build;

/** Takes the server's bundle in place of the build (see `build`'s `takeServer`). */
type ServerTaker = (files: esbuild.OutputFile[]) => Promise<void>;

/**
 * `dev` (used by `npm run dev`, into .dev/): readable bundles with React's
 * development build, no precompression, no size budget, and no content
 * snapshot, so the dev server compiles the content itself and shows its errors.
 */
export async function build({
  outDir = join(ROOT_DIR, 'dist'),
  dev = false,
  bundler = esbuild.build as Bundler,
  takeServer,
}: {
  outDir?: string;
  dev?: boolean;
  bundler?: Bundler;
  /**
   * `npm run dev`: is handed the server's bundle as soon as it is made, to write it to
   * <outDir>/server and start it while the browser's bundle is still being made; the
   * build then leaves that folder alone.
   */
  takeServer?: ServerTaker;
} = {}): Promise<void> {
  const dist = outDir;
  const assetsDir = join(dist, 'client', 'assets');
  // esbuild bundles in memory (write: false) while the content is compiled and indexed
  // beside it; nothing in dist/ changes until both are done, so a content error leaves
  // the last good build in place. It starts when the content leaves a core free
  // (build-content.ts): at once for a site compiled on this thread, else when the first
  // content thread has no locale left. Started first, beside every content thread, it slowed
  // each locale they began with; started then, it fills the core the last locale leaves idle,
  // with Go's threads kept to the cores the content does not use (GOMAXPROCS, unless set).
  let coreFree!: () => void;
  const bundling = new Promise<void>((resolve) => {
    coreFree = resolve;
  }).then(() => {
    if (!dev) process.env.GOMAXPROCS ??= String(Math.max(1, availableParallelism() - 1));
    return keptOrBundled(dist, assetsDir, dev, bundler, takeServer);
  });
  // A failed bundle is reported where it is awaited, not as an unhandled rejection meanwhile.
  bundling.catch(() => {});
  const content = dev ? null : await checkContent(dirname(dist), coreFree);
  // (Called already by every compile that ends; a second call does nothing.)
  coreFree();
  // Each locale's search index, content-hashed beside the bundles (the development server makes its own).
  const search: Record<string, string> = {};
  // The files of those a browser may download (an index too large to has its compact form alone).
  const downloadable: string[] = [];
  let bundled: Awaited<typeof bundling>;
  // The last build's output, moved aside and removed on the thread pool while this one is written.
  let removed = Promise.resolve();
  try {
    bundled = await bundling;
    const { files } = bundled;
    if (!takeServer) removed = setAside(dist);
    else
      for (const entry of existsSync(dist) ? readdirSync(dist) : []) if (entry !== 'server') rmSync(join(dist, entry), { recursive: true });
    mkdirSync(assetsDir, { recursive: true });
    for (const file of files) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.contents);
    }
    content?.compiled.writeSnapshot(dist, content.fingerprint);
    // The server's compact form goes outside the public folder.
    for (const index of content?.compiled.indexes ?? []) {
      moveIndex(index, join(dist, 'client', index.url), compactIndexPath(dist, index.url));
      search[index.locale] = index.url;
      if (index.file) downloadable.push(join(dist, 'client', index.url));
    }
  } finally {
    content?.compiled.dispose();
  }
  const { client, chooser } = bundled;

  const outputs = Object.entries(client.metafile.outputs);
  const entry = (name: string, ext: string) => {
    const found = outputs.find(([file, meta]) => meta.entryPoint && basename(file).startsWith(`${name}-`) && file.endsWith(ext));
    if (!found) throw new Error(`build: no ${name}${ext} output`);
    return `/${relative(join(dist, 'client'), join(ROOT_DIR, found[0])).split('\\').join('/')}`;
  };

  const icon = svgDataUrl('src/client/favicon.svg');
  // The build id names the client code: a change of any client file is a new build.
  const hash = createHash('sha256');
  for (const [file] of outputs.sort(([a], [b]) => a.localeCompare(b))) hash.update(readFileSync(join(ROOT_DIR, file)));
  const build = hash.digest('base64url').slice(0, 12);
  const js = entry('main', '.js');
  // Chunks the entry imports statically are part of the first load: preload them with it.
  const mainOutput =
    client.metafile.outputs[
      relative(ROOT_DIR, join(dist, 'client', js))
        .split('\\')
        .join('/')
    ]!;
  const preload = mainOutput.imports
    .filter((imported) => imported.kind === 'import-statement')
    // An external import is a URL already: `npm run dev`'s packages, bundled apart (scripts/dev-packages.ts).
    .map((imported) =>
      imported.external ? imported.path : `/${relative(join(dist, 'client'), join(ROOT_DIR, imported.path)).split('\\').join('/')}`,
    );
  const { localesDir, locales, defaultLocale } = loadConfig({ ...process.env, PORT: '0' });
  const images = await buildImages(localesDir, locales, assetsDir, {
    defaultLocale,
    warn: (message) => console.warn(`warning: ${message}`),
  });
  const chooserFile = chooser && Object.keys(chooser.metafile.outputs)[0]!;
  const chooserUrl = chooserFile ? `/${relative(join(dist, 'client'), join(ROOT_DIR, chooserFile)).split('\\').join('/')}` : null;
  const criticalCss = readFileSync(join(dist, 'client', entry('critical', '.css')), 'utf8').trim();
  const manifest: Manifest = { build, js, css: entry('styles', '.css'), criticalCss, icon, preload, search, images, chooser: chooserUrl };
  // Written whole under another name, then renamed: `npm run dev` rebuilds into a folder its
  // server and tools read meanwhile, and a reader must never find half a manifest.
  const manifestFile = join(dist, MANIFEST_FILE);
  writeFileSync(`${manifestFile}.${process.pid}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${manifestFile}.${process.pid}.tmp`, manifestFile);

  if (dev) return await removed;
  await precompress(assetsDir);
  reportSizes(
    dist,
    [
      ...outputs.map(([file]) => join(ROOT_DIR, file)),
      ...(chooserUrl ? [join(dist, 'client', chooserUrl)] : []),
      ...downloadable,
      ...Object.values(images).map((image) => join(dist, 'client', image.path)),
    ],
    [js, ...preload].map((path) => join(dist, 'client', path)),
    join(dist, 'client', entry('critical', '.css')),
  );
  await removed;
  console.log(`build ${build}: dist/manifest.json, dist/server/main.js, dist/server/export.js`);
}

/**
 * The bundles: the last build's (bundle-cache.ts) when nothing they are made from changed,
 * else made (and kept for the next build). `npm run dev` bundles incrementally itself.
 */
async function keptOrBundled(dist: string, assetsDir: string, dev: boolean, bundler: Bundler, takeServer?: ServerTaker): Promise<Bundles> {
  const cache = !dev && !takeServer && bundler === esbuild.build && cacheWanted(process.argv, process.env) ? BUNDLE_CACHE_DIR : null;
  const kept = cache && restoreBundles(cache, dist);
  if (kept) return kept;
  const startedAt = Date.now();
  const bundles = await bundle(dist, assetsDir, dev, bundler, takeServer);
  if (cache) keepBundles(cache, dist, bundles, startedAt);
  return bundles;
}

/** Every bundle (client, chooser, server, export program), made in memory: their files, the metafiles read later, and what esbuild read. */
async function bundle(dist: string, assetsDir: string, dev: boolean, bundler: Bundler, takeServer?: ServerTaker): Promise<Bundles> {
  const client = bundler({
    // site.css: the critical rules, inlined in every page (manifest.criticalCss); deferred.css: the rest, linked.
    entryPoints: { main: 'src/client/main.tsx', critical: 'src/client/site.css', styles: 'src/client/deferred.css' },
    absWorkingDir: ROOT_DIR,
    bundle: true,
    minify: !dev,
    format: 'esm',
    splitting: true,
    target: ['es2022'],
    platform: 'browser',
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
    // Dev: maps in files of their own, linked by a comment, which the browser fetches only while
    // its developer tools are open: a reload after a save loads and parses the code alone.
    sourcemap: dev ? 'linked' : false,
    // Messages arrive pre-parsed (ICU AST), so the browser never needs the ICU parser; and
    // every message gets its formatters from src/i18n/intl.ts, so no memoiser of defaults.
    alias: {
      '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js',
      '@formatjs/fast-memoize': './scripts/bundle-stubs/fast-memoize.ts',
    },
    // An explicit compile hint (Chromium 136+, ignored elsewhere): compile every function of
    // a chunk while it streams in, off the main thread. Without it, the first call of each
    // function compiles it on the main thread, and React's bundle is one CommonJS wrapper
    // function, compiled whole when the entry starts: a long task before hydration.
    banner: { js: '//# allFunctionsCalledOnLoad' },
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });

  // The root chooser of a static export (`npm run export`): a file of its own, outside
  // the site's bundle and its chunks, so it adds nothing to any page's first load.
  const chooser = dev
    ? null
    : bundler({
        entryPoints: { chooser: 'src/client/locale-chooser.ts' },
        absWorkingDir: ROOT_DIR,
        bundle: true,
        minify: true,
        format: 'esm',
        target: ['es2022'],
        platform: 'browser',
        outdir: assetsDir,
        entryNames: '[name]-[hash]',
        metafile: true,
        legalComments: 'none',
        logLevel: 'warning',
        write: false,
      });

  // The server and `npm run export`'s program (for `npm run dev`, its server instead, which
  // serves, reloads content in place and never exports) in one build: they share most modules, which esbuild then parses, links and maps
  // once (0.9 s against 2.0 s as two builds, at the start of the build where the content
  // compile wants both cores). What start-up may not need (the relay, undici and the SDK
  // without SENTRY_DSN, the Markdown and YAML compilers when dist/content.json is current) is
  // import()ed, and split into chunks so it is not even parsed unless it is used.
  const server = bundler({
    // `npm run dev` runs its own server (scripts/dev-server.ts), which reloads the content in place.
    entryPoints: dev ? { 'dev-server': 'scripts/dev-server.ts' } : { main: 'src/server/main.ts', export: 'src/export/main.ts' },
    absWorkingDir: ROOT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    splitting: true,
    outdir: join(dist, 'server'),
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    // Dependencies are bundled too: one file loads much faster than hundreds of
    // resolved ESM/CJS modules (cold start). The Sentry SDK as well: we use its core
    // and a few parts of @sentry/node (src/server/monitoring/sentry-client.ts), no OpenTelemetry
    // hooks, so only those parts are bundled, in a chunk loaded only with SENTRY_DSN.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // `npm run dev`'s server leaves the packages out, loaded from node_modules when it starts:
    // its rebuild after each save under src/ then bundles the project's own code only (the
    // packages were most of that work), for a start that resolves them one by one. Import
    // attributes are kept (Node 20.10+), for the JSON a package's version is read from.
    ...(dev && { packages: 'external' as const, supported: { 'import-attributes': true } }),
    jsx: 'automatic',
    // React's server renderer ships a development and a production build and picks one
    // at run time; the production bundle needs only the latter (about 0.8 MB less to load).
    // Our own NODE_ENV checks read the environment object, which this does not replace.
    define: dev ? {} : ({ 'process.env.NODE_ENV': '"production"' } as Record<string, string>),
    // Less to parse at start, with names kept so logged stacks stay readable without source maps.
    minifyWhitespace: !dev,
    minifySyntax: !dev,
    sourcemap: true,
    // Dev: maps without the sources' text, which Node does not need to map a stack (the files are
    // on disk): less for esbuild to write at each rebuild, and for the next server to read as it starts.
    sourcesContent: !dev,
    // What it read, for the bundle cache.
    metafile: true,
    logLevel: 'warning',
    write: false,
  });

  // The browser's files get their compressed siblings at once, on the thread pool, while the content is compiled.
  const siblings = async (result: Promise<esbuild.BuildResult<{ write: false }>> | null) =>
    (
      await Promise.all(
        ((await result)?.outputFiles ?? []).map(async ({ path, contents }) => {
          if (!/\.(js|css)$/.test(path) || dev) return [];
          const { br, gz } = await compressAsset(Buffer.from(contents));
          return [
            { path: `${path}.br`, contents: br },
            { path: `${path}.gz`, contents: gz },
          ];
        }),
      )
    ).flat();
  // Handed over (dev), the server's files are not written with the rest; the build ends once
  // they were taken, also when the browser's bundle failed first.
  const taken = takeServer && server.then((result) => takeServer(result.outputFiles ?? []));
  if (taken) await Promise.allSettled([client, taken]);
  const [built] = await Promise.all([Promise.all([client, chooser, taken ? null : server]), taken]);
  const compressed = (await Promise.all([siblings(client), siblings(chooser)])).flat();
  const files: { path: string; contents: Uint8Array }[] = [...built.flatMap((result) => result?.outputFiles ?? []), ...compressed];
  const inputs = new Set(built.flatMap((result) => Object.keys(result?.metafile?.inputs ?? {})));
  return { client: await client, chooser: await chooser, files, inputs: [...inputs] };
}

/** Where the last build's output is moved aside, beside it (the same file system), while it is removed. */
const ASIDE_PREFIX = '.polysite-old-dist-';

/**
 * Moves `dist` aside and removes it on libuv's thread pool (a large site's search indexes
 * and snapshot are hundreds of MB to unlink); one left aside by a build that was stopped is
 * removed first. A folder that cannot be moved (a mount point, say) is removed here.
 */
function setAside(dist: string): Promise<void> {
  const parent = dirname(dist);
  for (const entry of existsSync(parent) ? readdirSync(parent) : [])
    if (entry.startsWith(ASIDE_PREFIX)) rmSync(join(parent, entry), { recursive: true, force: true });
  const aside = join(parent, `${ASIDE_PREFIX}${process.pid}`);
  try {
    renameSync(dist, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(dist, { recursive: true, force: true });
    return Promise.resolve();
  }
  // One it could not remove is removed by the next build.
  return rm(aside, { recursive: true, force: true }).catch(() => {});
}

/**
 * A small SVG as a `data:` URL, written into every document: the browser then asks for no
 * file before its first paint (a phone's link would spend a round trip on it), and the CSP's
 * `img-src` allows `data:`.
 */
function svgDataUrl(source: string): string {
  const svg = readFileSync(join(ROOT_DIR, source), 'utf8').trim();
  // Percent-encoded where a URL needs it; `/`, `:` and `=` are valid as they are, and kept readable.
  return `data:image/svg+xml,${encodeURIComponent(svg).replace(/%(2F|3A|3D)/g, (code) => decodeURIComponent(code))}`;
}

/**
 * Brotli and gzip siblings of every asset that has none yet (the bundles and the
 * search indexes got theirs as they were made), all at once on libuv's thread pool.
 */
async function precompress(assetsDir: string): Promise<void> {
  const names = readdirSync(assetsDir);
  await Promise.all(
    names
      .filter((name) => /\.(js|css|svg|json)$/.test(name) && !(names.includes(`${name}.br`) && names.includes(`${name}.gz`)))
      .map(async (name) => writeSiblings(join(assetsDir, name), await compressAsset(readFileSync(join(assetsDir, name))))),
  );
}

function writeSiblings(file: string, { br, gz }: Compressed): void {
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
}

function reportSizes(dist: string, files: string[], firstLoad: string[], critical: string): void {
  let total = 0;
  let first = 0;
  let criticalGzip = 0;
  const rows = files
    .filter((file) => !file.endsWith('.map'))
    .map((file) => {
      const size = statSync(file).size;
      // The .gz sibling precompress wrote (gzip -9 of the same bytes), where there is one: a file is read only to gzip it.
      const gzip = existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : gzipSync(readFileSync(file), { level: 9 }).length;
      if (file.endsWith('.js')) total += gzip;
      if (firstLoad.includes(file)) first += gzip;
      if (file === critical) criticalGzip = gzip;
      return `  ${relative(dist, file).padEnd(44)} ${(size / 1024).toFixed(1).padStart(7)} KB ${(gzip / 1024).toFixed(1).padStart(7)} KB gzip`;
    });
  console.log(`client files (raw, gzip -9):\n${rows.join('\n')}`);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `  first load: JavaScript (entry + static imports) ${kb(first)} gzip, of ${FIRST_LOAD_JS_BUDGET / 1024} KB; ` +
      `CSS (critical, inlined) ${kb(criticalGzip)} gzip, of ${CRITICAL_CSS_BUDGET / 1024} KB; all JavaScript: ${kb(total)} gzip`,
  );
  if (first > FIRST_LOAD_JS_BUDGET)
    throw new Error(`first-load JavaScript is ${kb(first)} (${first} bytes) gzip, over the ${FIRST_LOAD_JS_BUDGET / 1024} KB budget`);
  if (criticalGzip > CRITICAL_CSS_BUDGET)
    throw new Error(`the critical CSS is ${kb(criticalGzip)} gzip, over the ${CRITICAL_CSS_BUDGET / 1024} KB budget`);
}

/** Compile every page and message now, so a broken file fails the build with its file and line. */
async function checkContent(stageIn: string, coreFree: () => void) {
  const config = loadConfig({ ...process.env, PORT: '0' });
  // A large site's worker threads boot while the fingerprint is taken. What they make is
  // staged beside the output folder (on its file system, so it is moved into place, not copied).
  const cached = cacheWanted(process.argv, process.env);
  const contentCache = cached
    ? { dir: CONTENT_CACHE_DIR, code: storedCompilerCodeHash(join(CONTENT_CACHE_DIR, 'compiler-code.json')) }
    : null;
  const compiler = contentCompiler(config.localesDir, config.locales, {
    cacheDir: cached ? HIGHLIGHT_CACHE_DIR : null,
    contentCache,
    stageIn,
    // The server's bound (SEARCH_INDEX_MAX_KB): a browser never downloads an index over it, so it gets no browser forms.
    maxDownloadBytes: config.searchIndexMaxKb * 1024,
  });
  // Taken before any page is read: a page edited during the build makes the snapshot stale, never wrong.
  // The one walk of the content serves the locale keys too.
  const files = contentFiles(config.localesDir);
  const fingerprint = contentFingerprint(config.localesDir, config.locales, config.defaultLocale, files);
  // The one content check the dev server runs too (src/server/content/load-content.ts).
  const compiled = await compiler.compile(config.defaultLocale, files, coreFree);
  if (cached) {
    const whole = compiled.reusedLocales.length
      ? `; locales taken whole, nothing of theirs changed: ${compiled.reusedLocales.join(', ')}`
      : '';
    console.log(
      `content: ${compiled.reusedPages} compiled pages reused from the cache${whole} (npm run build -- --no-cache builds from nothing)`,
    );
  }
  if (cached) {
    pruneHighlightCache(HIGHLIGHT_CACHE_DIR, HIGHLIGHT_CACHE_BYTES);
    pruneHighlightCache(CONTENT_CACHE_DIR, CONTENT_CACHE_BYTES);
  }
  return { fingerprint, compiled };
}

/** `npm run build`: run here under tsx, or from the compiled build (compiled-build.mjs). */
export function main(): void {
  // DIST_DIR, as the server reads it: a build of another content folder beside the default one.
  build({ outDir: process.env.DIST_DIR || undefined }).catch((error: Error) => {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
