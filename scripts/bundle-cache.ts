// The bundles of `npm run build` kept between builds: the client's, the chooser's, the
// server's and the export program's files, with the browser files' brotli and gzip forms,
// and the metafiles the build reads. While no file of the project esbuild read for them
// changed, nor a folder holding one (a file added there could be a new import's target: its
// importer's change is seen anyway), nor the installed packages (npm rewrites
// node_modules/.package-lock.json with each install: the packages' own files are not stamped
// one by one, which was most of the check's cost), nor what decides how they are made and
// resolve (the build's own script, the compression levels, tsconfig.json, esbuild's and
// Node's versions, the working and output folders), the last build's files are written
// again and esbuild is not run: on a content-only rebuild, bundling and compressing the unchanged
// code was most of the build's CPU and the longest step on its way.
//
// One entry, replaced whole by each build that bundled: the cache is one build's bundles.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { threadId } from 'node:worker_threads';
import { type Metafile, version as esbuildVersion } from 'esbuild';
import { ROOT_DIR } from '../src/server/config.ts';
import { type Stamp, settledStamps, stampsHold } from './file-stamps.mjs';

const FORMAT = 1;
/** Besides the bundles' inputs and their folders: what decides how they are made and resolve. */
const SETTINGS = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'tsconfig.json',
  'scripts/build.ts',
  'scripts/bundle-cache.ts',
  'scripts/asset-compression.ts',
];
/** Inputs under this folder are the installed packages': `node_modules/.package-lock.json` stands for them. */
const PACKAGES = 'node_modules/';
/** A bundle's output file: its absolute path under the output folder and its bytes. */
export type BundleFile = { path: string; contents: Uint8Array };

/** What the build reads of its bundles. `inputs`: every file esbuild read, relative to the repository. */
export type Bundles = {
  client: { metafile: Metafile };
  chooser: { metafile: Metafile } | null;
  files: BundleFile[];
  inputs: readonly string[];
};

type Memo = {
  format: number;
  context: string;
  stamps: Stamp[];
  /** Each file's path under the output folder and its size; its bytes are `files/<index>`. */
  files: [path: string, bytes: number][];
  client: Metafile;
  chooser: Metafile | null;
};

/**
 * The last build's bundles for output folder `dist`, when nothing they were made from
 * changed; else null. `root`: the folder the bundles' inputs are relative to (esbuild's absWorkingDir).
 */
export function restoreBundles(dir: string, dist: string, root = ROOT_DIR): Bundles | null {
  try {
    const memo = JSON.parse(readFileSync(join(dir, 'memo.json'), 'utf8')) as Memo;
    if (memo.format !== FORMAT || memo.context !== context(dist, root)) return null;
    if (!stampsHold(root, memo.stamps)) return null;
    const files = memo.files.map(([path, bytes], i): BundleFile => {
      const contents = readFileSync(join(dir, 'files', String(i)));
      if (contents.length !== bytes) throw new Error('a kept bundle file is not as it was kept');
      return { path: join(dist, path), contents };
    });
    return { client: { metafile: memo.client }, chooser: memo.chooser && { metafile: memo.chooser }, files, inputs: [] };
  } catch {
    return null;
  }
}

/**
 * Keeps `bundles`, made for `dist` by a bundling that began at `startedAt` (Date.now()),
 * in place of the last entry; nothing when a file they were made from changed since.
 */
export function keepBundles(dir: string, dist: string, bundles: Bundles, startedAt: number, root = ROOT_DIR): void {
  const own = bundles.inputs.filter((file) => !file.startsWith(PACKAGES));
  const watched = [...new Set([...own, ...SETTINGS, ...own.map((file) => dirname(file))])].sort();
  const stamps = settledStamps(root, watched, startedAt);
  if (!stamps) return;
  const files = bundles.files.map(({ path, contents }): [string, number] => [relative(dist, path).split(sep).join('/'), contents.length]);
  // An output outside the folder could not be put back where it was.
  if (files.some(([path]) => path.startsWith('../') || resolve(dist, path) === dist)) return;
  const temporary = `${dir}.${process.pid}-${threadId}.tmp`;
  try {
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(join(temporary, 'files'), { recursive: true });
    for (const [i, { contents }] of bundles.files.entries()) writeFileSync(join(temporary, 'files', String(i)), contents);
    const memo: Memo = {
      format: FORMAT,
      context: context(dist, root),
      stamps,
      files,
      client: bundles.client.metafile,
      chooser: bundles.chooser?.metafile ?? null,
    };
    writeFileSync(join(temporary, 'memo.json'), JSON.stringify(memo));
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(temporary, dir);
  } catch {
    // A cache that cannot be written costs the next build time, never this one's output.
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** What the bundles depend on besides files: the tools' versions and the folders the metafiles' paths are relative to. */
function context(dist: string, root: string): string {
  return JSON.stringify([
    esbuildVersion,
    process.version,
    process.versions.brotli ?? '',
    process.versions.zlib ?? '',
    resolve(root),
    resolve(dist),
  ]);
}
