// The hash of the code that makes the build's content (the compiled pages, the search
// indexes, the snapshot): every source file scripts/build-content.ts imports, directly or
// through others, the installed packages (package-lock.json: markdown-it, Prism,
// sanitize-html, the stemmers...) and Node's own version (its ICU formats labels and cuts
// Japanese into words). The content caches (page-cache.ts, build-content.ts) key every
// entry with it: a change to any of these compiles everything again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';

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
  const hash = createHash('sha256').update(`${process.version}\0${process.versions.icu ?? ''}\0`);
  for (const file of [...files, 'package-lock.json']) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT_DIR, file)))
      .update('\0');
  }
  return hash.digest('base64url');
}
