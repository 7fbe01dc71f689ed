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

/** The files of one index, as build-content.ts stages them: the JSON, its .br and .gz, and its compact form. */
export type IndexFiles = { file: string; compact: string };

const PARTS = ['index.json', 'index.json.br', 'index.json.gz', 'index.bin'] as const;

/** Each part's size and modification time, as the entry's stamp records them. */
type Stamp = [size: number, mtimeMs: number][];

/** Every file of a staged index. */
export function indexFiles({ file, compact }: IndexFiles): string[] {
  return [file, `${file}.br`, `${file}.gz`, compact];
}

/**
 * Links the cached index of `key` to `target`'s paths; returns its JSON's bytes (none with
 * `read` false: the caller knows its URL), or null when the cache has no whole entry for it
 * (missing, or a part not as recorded when it was kept: then it is made again).
 */
export function restoreIndex(dir: string, key: string, target: IndexFiles, { read = true } = {}): Buffer | null {
  const entry = join(dir, key.slice(0, 2), key);
  try {
    const stamp = JSON.parse(readFileSync(join(entry, 'stamp.json'), 'utf8')) as unknown;
    if (!Array.isArray(stamp) || stamp.length !== PARTS.length) return null;
    if (PARTS.some((part, i) => !sameStamp(stampOf(join(entry, part)), stamp[i]))) return null;
    const json = read ? readFileSync(join(entry, PARTS[0])) : Buffer.alloc(0);
    for (const [i, file] of indexFiles(target).entries()) place(join(entry, PARTS[i]!), file);
    // Used now: the oldest entries are the ones dropped past the folder's bound.
    const now = new Date();
    for (const part of PARTS) utimesSync(join(entry, part), now, now);
    writeStamp(entry, entry);
    return json;
  } catch {
    return null;
  }
}

/** Keeps the staged index files under `key` (linked into a temporary folder, then renamed: a reader never sees half). */
export function keepIndex(dir: string, key: string, staged: IndexFiles): void {
  const entry = join(dir, key.slice(0, 2), key);
  const temporary = `${entry}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(temporary, { recursive: true });
    for (const [i, file] of indexFiles(staged).entries()) place(file, join(temporary, PARTS[i]!));
    writeStamp(temporary, temporary);
    rmSync(entry, { recursive: true, force: true });
    renameSync(temporary, entry);
  } catch {
    // A cache that cannot be written costs the next build time, never this one's output.
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** `from` at `to` as a hard link, or a copy where a link cannot be made (another file system). */
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

/** Records the parts' stamps in `entry` (written beside, then renamed over the old one). */
function writeStamp(entry: string, folder: string): void {
  const stamp: Stamp = PARTS.map((part) => stampOf(join(folder, part)));
  const temporary = join(entry, `stamp.json.${process.pid}-${threadId}.tmp`);
  writeFileSync(temporary, JSON.stringify(stamp));
  renameSync(temporary, join(entry, 'stamp.json'));
}
