// Search index files kept between builds: a scope's index (a locale's, or a locale's for an
// older docs version) is made again only when what it indexes changed. A frozen docs
// version's indexes, and every locale's where no page changed, are linked instead of
// made (stemming every page's text is about a third of a locale's build).
//
// Files move in and out of the cache as hard links (a copy only across file systems): the
// indexes are the bulk of the cache's bytes, and copying and hashing them made a first
// build slower than one without the cache. A linked file is one file seen from two
// folders, so an entry records each part's size and modification time and is used only
// while they are unchanged: a file written over in place in either folder (the build's
// output or the cache) is seen, and the index made again.
import { copyFileSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The files of one index, as build-content.ts stages them: its compact form, and the JSON a
 * browser downloads with its .br and .gz, or no JSON (null) for an index too large to download.
 */
export type IndexFiles = { file: string | null; compact: string };

/** An index's compact form, then (for one a browser may download) the JSON and its .br and .gz. */
const PARTS = ['index.bin', 'index.json', 'index.json.br', 'index.json.gz'] as const;

/** The index's URL, and each part's size and modification time. */
type Stamp = { url: string; parts: [size: number, mtimeMs: number][] };

/** Every file of a staged index, in the order of PARTS. */
export function indexFiles({ file, compact }: IndexFiles): string[] {
  return file ? [compact, file, `${file}.br`, `${file}.gz`] : [compact];
}

/**
 * Links the cached index of `key` to `target`'s paths (its JSON's only where it has one);
 * returns its URL and whether it has the JSON, or null when the cache has no whole entry for it
 * (missing, or a part not as recorded when it was kept: then it is made again).
 */
export function restoreIndex(
  dir: string,
  key: string,
  target: { file: string; compact: string },
): { url: string; browser: boolean } | null {
  const entry = join(dir, key.slice(0, 2), key);
  try {
    const stamp = JSON.parse(readFileSync(join(entry, 'stamp.json'), 'utf8')) as Partial<Stamp>;
    const parts = stamp.parts;
    if (typeof stamp.url !== 'string' || !Array.isArray(parts) || (parts.length !== 1 && parts.length !== PARTS.length)) return null;
    const kept = PARTS.slice(0, parts.length);
    if (kept.some((part, i) => !sameStamp(stampOf(join(entry, part)), parts[i]))) return null;
    const browser = kept.length > 1;
    for (const [i, file] of indexFiles(browser ? target : { file: null, compact: target.compact }).entries())
      place(join(entry, kept[i]!), file);
    // Used now: the oldest entries are the ones dropped past the folder's bound.
    const now = new Date();
    for (const part of kept) utimesSync(join(entry, part), now, now);
    writeStamp(entry, entry, stamp.url, kept.length);
    return { url: stamp.url, browser };
  } catch {
    return null;
  }
}

/** Keeps the staged index files under `key` (linked into a temporary folder, then renamed: a reader never sees half). */
export function keepIndex(dir: string, key: string, staged: IndexFiles & { url: string }): void {
  const entry = join(dir, key.slice(0, 2), key);
  const temporary = `${entry}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(temporary, { recursive: true });
    const files = indexFiles(staged);
    for (const [i, file] of files.entries()) place(file, join(temporary, PARTS[i]!));
    writeStamp(temporary, temporary, staged.url, files.length);
    rmSync(entry, { recursive: true, force: true });
    renameSync(temporary, entry);
  } catch {
    // A cache that cannot be written costs the next build time, never this one's output.
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** Puts `from` at `to` as a hard link (a copy across file systems), replacing what was there. */
export function place(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** A file's size and modification time: what a linked cache file is known by. */
export function stampOf(file: string): [number, number] {
  const { size, mtimeMs } = statSync(file);
  return [size, mtimeMs];
}

/** Whether a stamp read back from a cache entry is `now`'s. */
export function sameStamp(now: [number, number], kept: unknown): boolean {
  return Array.isArray(kept) && kept[0] === now[0] && kept[1] === now[1];
}

/** Records the URL and the stamps of the first `count` parts in `entry` (written beside, then renamed over the old one). */
function writeStamp(entry: string, folder: string, url: string, count: number): void {
  const stamp: Stamp = { url, parts: PARTS.slice(0, count).map((part) => stampOf(join(folder, part))) };
  const temporary = join(entry, `stamp.json.${process.pid}-${threadId}.tmp`);
  writeFileSync(temporary, JSON.stringify(stamp));
  renameSync(temporary, join(entry, 'stamp.json'));
}
