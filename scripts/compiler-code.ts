// The hash of the code that makes the build's content (the compiled pages, the search
// indexes, the snapshot): every source file scripts/build-content.ts imports, directly or
// through others, the installed packages (package-lock.json: markdown-it, Prism,
// sanitize-html, the stemmers...) and Node's own version (its ICU formats labels and cuts
// Japanese into words). The content caches (page-cache.ts, build-content.ts) key every
// entry with it: a change to any of these compiles everything again. `npm run build` takes it
// from a memo (storedCompilerCodeHash) while none of those files, nor the folders holding
// them, changed: resolving the import graph and reading the files was a large part of
// every rebuild.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { saveCacheFile } from '../src/server/content/cache-file.ts';

const ROOT_DIR = join(fileURLToPath(import.meta.url), '..', '..');

/** The esbuild build whose metafile's inputs are the content build's import graph (`npm run dev` runs it incrementally). */
export const COMPILER_GRAPH = {
  entryPoints: [join(ROOT_DIR, 'scripts', 'build-content.ts')],
  absWorkingDir: ROOT_DIR,
  bundle: true,
  write: false,
  metafile: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  logLevel: 'silent',
} satisfies BuildOptions;

/** The files the content build's code is made of, relative to the repository (its import graph, as esbuild resolves it). */
export function compilerSourceFiles(): string[] {
  return Object.keys(buildSync(COMPILER_GRAPH).metafile.inputs).sort();
}

/** `files`: compilerSourceFiles(), unless the caller resolved them already. */
export function compilerCodeHash(files = compilerSourceFiles()): string {
  const hash = createHash('sha256').update(`${runtime()}\0`);
  for (const file of [...files, 'package-lock.json']) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT_DIR, file)))
      .update('\0');
  }
  return hash.digest('base64url');
}

const MEMO_FORMAT = 1;
/** Besides the graph's files: what decides how it resolves and what it installs. */
const SETTINGS = ['package.json', 'package-lock.json', 'tsconfig.json'];

type Memo = { format: number; runtime: string; stamps: [path: string, stamp: string][]; hash: string };

/**
 * compilerCodeHash(), remembered in `memoFile` with the stamp (size, times, inode) of every
 * file it read, of the settings that decide how the graph resolves, and of every folder
 * holding a file of the graph (a file added there could be a new import's target: its
 * importer's change is seen anyway): while none of them changed, the hash is the memo's.
 * The stamps are taken before the files are read, so a file changed meanwhile is seen by
 * the next build.
 */
export function storedCompilerCodeHash(memoFile: string): string {
  try {
    const memo = JSON.parse(readFileSync(memoFile, 'utf8')) as Memo;
    if (memo.format === MEMO_FORMAT && memo.runtime === runtime() && memo.stamps.every(([path, stamp]) => stampOf(path) === stamp))
      return memo.hash;
  } catch {
    // None yet, or unreadable: made again.
  }
  const files = compilerSourceFiles();
  const watched = [...new Set([...files, ...SETTINGS, ...files.map((file) => dirname(file))])];
  const stamps = watched.map((path): [string, string] => [path, stampOf(path)]);
  const hash = compilerCodeHash(files);
  saveCacheFile(memoFile, true, () => JSON.stringify({ format: MEMO_FORMAT, runtime: runtime(), stamps, hash } satisfies Memo));
  return hash;
}

function runtime(): string {
  return `${process.version}\0${process.versions.icu ?? ''}`;
}

/** A path's stamp, relative to the repository ('' when it is missing). */
function stampOf(path: string): string {
  try {
    const { size, mtimeMs, ctimeMs, ino } = statSync(join(ROOT_DIR, path));
    return `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
  } catch {
    return '';
  }
}
