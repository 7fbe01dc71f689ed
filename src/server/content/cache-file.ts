// The files of the build's caches (page-cache.ts, markdown/highlight-cache.ts and the
// caches under scripts/): how one is named, written, marked used and read back. A cache
// file is replaced whole (written under a temporary name, then renamed), so a reader in
// another thread or process never sees half of one; the folder's bound drops the files
// least recently used, so a file read and kept as it was is marked used.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

/** The name of one site's (`localesDir`) cache file for `what` (a serving locale, a search scope). */
export function cacheFileName(localesDir: string, what: string): string {
  return createHash('sha256')
    .update(`${resolve(localesDir)}\0${what}`)
    .digest('hex')
    .slice(0, 24);
}

/**
 * Keeps `file` as it is (`changed` false: it is only marked used now), or replaces it
 * with `bytes()`. A cache that cannot be written costs the next build time, never this
 * one's output, so a failure is dropped.
 */
export function saveCacheFile(file: string, changed: boolean, bytes: () => string | Uint8Array): void {
  if (!changed) {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // None yet, or gone meanwhile: nothing to mark.
    }
    return;
  }
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, bytes());
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * A gzipped pack's entries: after a header line that `header` accepts, one line per entry,
 * its key, a tab, then its value's bytes (neither holds a line break; the key no tab).
 * Empty when the pack is missing, not whole (gzip's checksum), or of another header.
 */
export function readPackLines(file: string, header: (line: string) => boolean): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let bytes: Buffer;
  try {
    bytes = gunzipWhole(readFileSync(file));
  } catch {
    return entries;
  }
  let end = bytes.indexOf(10);
  if (!header(bytes.toString('utf8', 0, end === -1 ? bytes.length : end))) return entries;
  while (end !== -1) {
    const start = end + 1;
    end = bytes.indexOf(10, start);
    const line = bytes.subarray(start, end === -1 ? bytes.length : end);
    const tab = line.indexOf(9);
    if (tab !== -1) entries.set(line.subarray(0, tab).toString(), line.subarray(tab + 1));
  }
  return entries;
}

/** No output chunk smaller than zlib's default; none larger than this (the trailer's size is the pack's, modulo 4 GiB). */
const MIN_CHUNK = 16 * 1024;
const MAX_CHUNK = 1024 * 1024 * 1024;

/**
 * `gunzipSync`, its output made in one buffer of the size gzip's trailer gives: in zlib's
 * default 16 KiB chunks, a large pack was thousands of buffers copied again into one, which
 * cost about as much as the inflating. A trailer that lies costs only more chunks.
 */
function gunzipWhole(gzipped: Buffer): Buffer {
  const size = gzipped.length >= 4 ? gzipped.readUInt32LE(gzipped.length - 4) : 0;
  return gunzipSync(gzipped, { chunkSize: Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, size + 1)) });
}
