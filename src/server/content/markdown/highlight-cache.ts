import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readPackLines, saveCacheFile } from '../cache-file.ts';

/**
 * Highlighted blocks kept on disk between builds, by their key (a hash of the
 * highlighter's version, its classes, the language and the code: highlighter.ts), so the
 * next build reads a block rather than highlighting it again. Used only where a build
 * turns it on (`setHighlightCache`); the server compiling at start and the tests without
 * one highlight every block.
 *
 * One gzipped pack per serving locale (a build thread compiles one locale at a time;
 * blocks are found by their content, so sites built with one cache share it), read when the first block is not in the highlighter's memo, written once when the
 * locale is compiled (`saveHighlightCache`): a file per block cost more in creating,
 * writing and renaming files than highlighting the block did. A pack holds a line per
 * block: its key, a tab and its lines of HTML as JSON (which escapes line breaks and
 * tabs). A pack is rewritten only when a block was added, with the blocks it had and the
 * new ones (a rebuild that compiles a few pages does not drop the others' blocks), and
 * holds only the blocks that build used once that passes PACK_BYTES; the folder is
 * bounded by `pruneHighlightCache`.
 */
const FORMAT = 2;
const HEADER = JSON.stringify({ format: FORMAT });
const PACK_BYTES = 16 * 1024 * 1024;

type Pack = { file: string; kept: Map<string, Buffer> | null; used: Map<string, Buffer>; added: boolean };
let pack: Pack | null = null;

/**
 * Turns the cache on for this thread, in `dir`, with the pack `name` (the serving
 * locale's), or off (null). The pack left open is dropped unsaved.
 */
export function setHighlightCache(dir: string | null, name = 'blocks'): void {
  pack = dir ? { file: join(dir, `${name}.blocks.gz`), kept: null, used: new Map(), added: false } : null;
}

export function readCachedBlock(key: string): string[] | null {
  if (!pack) return null;
  pack.kept ??= readPackLines(pack.file, (line) => line === HEADER);
  const json = pack.used.get(key) ?? pack.kept.get(key);
  if (!json) return null; // Not cached yet: highlighted, then kept.
  try {
    const lines = JSON.parse(json.toString()) as unknown;
    if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string')) return null;
    pack.used.set(key, json);
    return lines;
  } catch {
    return null;
  }
}

export function writeCachedBlock(key: string, lines: string[]): void {
  if (!pack) return;
  pack.used.set(key, Buffer.from(JSON.stringify(lines)));
  pack.added = true;
}

/** Writes this thread's pack if a block was added to it (else only marks it used). */
export function saveHighlightCache(): void {
  if (!pack) return;
  const { file, kept, used, added } = pack;
  saveCacheFile(file, added, () => {
    const entries = new Map(used);
    let bytes = 0;
    for (const [key, json] of entries) bytes += key.length + json.length + 2;
    for (const [key, json] of kept ?? []) {
      if (entries.has(key)) continue;
      bytes += key.length + json.length + 2;
      if (bytes > PACK_BYTES) break;
      entries.set(key, json);
    }
    const parts: Buffer[] = [Buffer.from(HEADER)];
    for (const [key, json] of entries) parts.push(Buffer.from(`\n${key}\t`), json);
    return gzipSync(Buffer.concat(parts), { level: 1 });
  });
  pack.added = false;
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
