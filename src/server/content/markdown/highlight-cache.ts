import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Highlighted blocks kept on disk between builds, one file per block named by its key
 * (a hash of the highlighter's version, its classes, the language and the code:
 * highlighter.ts), so the next build, or the next thread, reads a block rather than
 * highlighting it again. Used only where a build turns it on (`setHighlightCache`); the
 * server compiling at start and the tests without one highlight every block.
 *
 * A file holds the block's lines of HTML, one per line (a line's HTML has no newline).
 * It is written under a temporary name and renamed, so a reader never sees half a block,
 * whichever thread or process wrote it; its size is bounded by `pruneHighlightCache`.
 */
let cacheDir: string | null = null;

/** Turns the cache on for this thread, in `dir` (null: off). */
export function setHighlightCache(dir: string | null): void {
  cacheDir = dir;
}

export function highlightCacheDir(): string | null {
  return cacheDir;
}

function fileOf(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), key);
}

export function readCachedBlock(key: string): string[] | null {
  if (!cacheDir) return null;
  try {
    return readFileSync(fileOf(cacheDir, key), 'utf8').split('\n');
  } catch {
    return null; // Not cached yet, or the cache was removed: highlighted again.
  }
}

export function writeCachedBlock(key: string, lines: string[]): void {
  if (!cacheDir) return;
  const file = fileOf(cacheDir, key);
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(temporary, lines.join('\n'));
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written (a read-only or full disk) costs the next build time, never this one's output.
    rmSync(temporary, { force: true });
  }
}

/**
 * Removes the oldest blocks while the cache holds more than `maxBytes`, down to three
 * quarters of it (so the next build does not prune again at once). A block that is still
 * used is highlighted again by the next build that needs it.
 */
export function pruneHighlightCache(dir: string, maxBytes: number): void {
  let entries: { file: string; bytes: number; time: number }[];
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = join(entry.parentPath, entry.name);
        const stat = statSync(file);
        // What the file takes on disk: a small file takes a whole block.
        return { file, bytes: Math.max(stat.size, stat.blocks * 512), time: stat.mtimeMs };
      });
  } catch {
    return; // No cache yet.
  }
  let total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  if (total <= maxBytes) return;
  entries.sort((a, b) => a.time - b.time);
  for (const entry of entries) {
    if (total <= (maxBytes * 3) / 4) break;
    rmSync(entry.file, { force: true });
    total -= entry.bytes;
  }
}
