// `npm run build`'s own code (scripts/build.ts and all it imports, the packages with it),
// compiled to JavaScript by esbuild and kept between builds, so the build runs under Node
// itself: under tsx, every module went through its loader (on a thread of its own) and every
// worker thread booted the loader again, and Node resolved, read and compiled each package
// module: about a CPU-second per thread on every build. Two entries: the build, and the
// content compiler its worker threads run (ts-worker.ts starts that in place of the
// TypeScript module). Every `import.meta.url` is its source file's, as the code expects
// (ROOT_DIR, workers), and packages with native parts are left out (LEFT_OUT), so the
// compiled files may be anywhere (POLYSITE_CACHE_DIR).
//
// Kept while none of the project's files compiled changed, nor a folder holding one (a file
// added there could be a new import's target), nor the installed packages (npm rewrites
// node_modules/.package-lock.json with every install), nor the settings that decide how they
// compile and resolve (file-stamps.mjs). One entry, replaced whole when compiled again.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { settledStamps, stampsHold } from './file-stamps.mjs';

const FORMAT = 1;
const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The content compiler's module: the entry its worker threads run. */
const WORKER_MODULES = ['scripts/build-content.ts'];
/** Besides the compiled files and their folders: what decides how they compile and resolve. */
const SETTINGS = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'scripts/compiled-build.mjs'];
/** The entry that runs the build (scripts/build.ts's `main`). */
const MAIN = 'polysite:build-main';

/** The compiled build's folder under `cacheRoot`: `build.mjs` runs it, and each worker module is `<name>.mjs` beside it. */
export function compiledBuildDir(cacheRoot) {
  return join(cacheRoot, 'polysite', 'build-script');
}

/**
 * The compiled build, compiled now unless the kept one is current: `script`, its entry, and
 * `workers`, the file URL of each worker module's compiled entry by its source's URL
 * (ts-worker.ts reads them from POLYSITE_BUILD_WORKERS).
 */
export async function compiledBuild(cacheRoot) {
  const dir = compiledBuildDir(cacheRoot);
  if (!isCurrent(dir)) await compile(dir);
  const workers = Object.fromEntries(
    WORKER_MODULES.map((module) => [pathToFileURL(join(ROOT_DIR, module)).href, pathToFileURL(join(dir, `${entryName(module)}.mjs`)).href]),
  );
  return { script: join(dir, 'build.mjs'), workers };
}

function isCurrent(dir) {
  try {
    const memo = JSON.parse(readFileSync(join(dir, 'memo.json'), 'utf8'));
    return memo.format === FORMAT && memo.context === context() && stampsHold(ROOT_DIR, memo.stamps);
  } catch {
    return false; // None yet, or unreadable.
  }
}

/** A worker module's entry name: its file name without the extension. */
function entryName(module) {
  return module.replace(/^.*\//, '').replace(/\.ts$/, '');
}

async function compile(dir) {
  const esbuild = await import('esbuild');
  const startedAt = Date.now();
  const temporary = `${dir}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  const entryPoints = { build: MAIN };
  for (const module of WORKER_MODULES) entryPoints[entryName(module)] = module;
  const result = await esbuild.build({
    entryPoints,
    absWorkingDir: ROOT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    splitting: true,
    outdir: temporary,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    metafile: true,
    logLevel: 'warning',
    plugins: [buildMain, leftOutWhereNodeFindsThem, sourceUrls],
    // The packages' CommonJS modules require Node's own modules.
    banner: {
      js: `import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(${JSON.stringify(pathToFileURL(join(ROOT_DIR, 'package.json')).href)});`,
    },
  });
  // The packages' files are not stamped one by one: npm rewrites node_modules/.package-lock.json with every install.
  const inputs = Object.keys(result.metafile.inputs).filter(
    (input) => !input.startsWith('polysite:') && !input.startsWith('node_modules/'),
  );
  const watched = [...new Set([...inputs, ...SETTINGS, ...inputs.map((input) => dirname(input))])].sort();
  const stamps = settledStamps(ROOT_DIR, watched, startedAt);
  // Files that changed while they were compiled: this build runs what was compiled, the next compiles again.
  writeFileSync(
    join(temporary, 'memo.json'),
    JSON.stringify({ format: FORMAT, context: context(), stamps: stamps ?? [['', 'unsettled']] }),
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(temporary, dir);
}

function context() {
  return JSON.stringify([process.version, ROOT_DIR]);
}

/** The entry: scripts/build.ts's `main`, which the TypeScript module runs only when it is the process's script. */
const buildMain = {
  name: 'build-main',
  setup(build) {
    build.onResolve({ filter: /^polysite:build-main$/ }, () => ({ path: MAIN, namespace: 'polysite' }));
    build.onLoad({ filter: /.*/, namespace: 'polysite' }, () => ({
      contents: "import { main } from './scripts/build.ts';\nmain();\n",
      resolveDir: ROOT_DIR,
      loader: 'js',
    }));
  },
};

/**
 * Packages with a program or native code of their own, found beside their JavaScript (esbuild's
 * binary, sharp's libvips), are left out: imported from the file URL Node resolves each to
 * from the project, so the compiled files may be anywhere.
 */
const LEFT_OUT = ['esbuild', 'sharp'];

const leftOutWhereNodeFindsThem = {
  name: 'left-out-where-node-finds-them',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${LEFT_OUT.join('|')})$`) }, (args) => ({
      path: import.meta.resolve(args.path),
      external: true,
    }));
  },
};

/**
 * `import.meta.url` in a project file is that file's URL, as under a TypeScript loader
 * (esbuild's define, per file: it replaces the expression, never text in a string).
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.startsWith(join(ROOT_DIR, 'node_modules'))) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const loader = /\.tsx$/.test(args.path) ? 'tsx' : /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
      const { transform } = await import('esbuild');
      const { code } = await transform(text, {
        loader,
        format: 'esm',
        define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
      });
      return { contents: code, loader: 'js' };
    });
  },
};
