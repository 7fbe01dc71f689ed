import { hash } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { cacheFileName, readPackLines, saveCacheFile } from './cache-file.ts';

/**
 * Compiled pages kept on disk between builds, so a build compiles again only the pages
 * whose inputs changed (loadSite's `pageCache`). An entry is found by a hash of every
 * input of the page's compile that is known before compiling it (its source, the
 * compiler's code, the labels, its path, record and date: see site.ts) and kept only
 * while what it depended on across the site is unchanged: each link and image it named
 * resolves now as it did then (the `outcome`, checked on every use, as the dev memo does).
 *
 * One pack per serving locale (a build thread compiles one locale), gzipped: its header
 * names the format and the compiler's code hash, and gzip's checksum covers the rest, so
 * a pack that is cut off, corrupt, of another format or of other code is ignored and
 * the locale compiled again. A pack is rewritten after each build with exactly the
 * entries that build used, so it holds one build's pages; packs of other sites and
 * locales are dropped oldest first past a bound on the folder's bytes (pruneCacheDir).
 */
const FORMAT = 1;

/** One compiled page as kept: the page's fields with its HTML, headings and Markdown as plain values. */
export type CachedPage = {
  links: [href: string, line: number][];
  images: [src: string, line: number][];
  outcome: string;
  page: Record<string, unknown> & { html: string; markdown: string; headings: unknown[] };
  mistakes: { line: number; message: string }[];
  fragments: unknown[];
  warnings: { line: number; message: string }[];
};

export type PageCache = {
  /** The code hash every key includes (compilerCodeHash). */
  readonly code: string;
  get(key: string): CachedPage | undefined;
  set(key: string, entry: CachedPage): void;
};

/**
 * The cache of one site's pages served in `serving`, read from `dir`, for code `code`.
 * `save` writes what this build used (call it after the load, whether or not it failed:
 * a page that compiled keeps its entry, its mistakes included).
 */
export function openPageCache(
  dir: string,
  localesDir: string,
  serving: readonly string[],
  code: string,
): PageCache & { save(): void; saveAsync(): Promise<void>; readonly reused: number } {
  const file = join(dir, `${cacheFileName(localesDir, serving.join(','))}.pack.gz`);
  const kept = readPack(file, code);
  // Entries as their JSON's UTF-8 bytes, off the heap: a locale's pages are held once, as the pack holds them.
  const used = new Map<string, Buffer>();
  let reused = 0;
  let added = false;
  return {
    code,
    get(key) {
      const json = kept.get(key);
      const entry = json && parsed(json.toString());
      if (!entry) return undefined;
      used.set(key, json);
      reused++;
      return entry;
    },
    set(key, entry) {
      used.set(key, Buffer.from(JSON.stringify(entry)));
      added = true;
    },
    get reused() {
      return reused;
    },
    save() {
      const bytes = unsaved();
      if (bytes) write(gzipSync(bytes, { level: 1 }));
    },
    // The same, compressed on libuv's thread pool while a build goes on with the locale, a
    // batch of entries at a time: the pack is never held whole beside its entries, and the
    // entries are let go once they are written (the cache is not used after it is saved).
    async saveAsync() {
      if (unchanged()) return;
      const chunks: Buffer[] = [];
      try {
        await pipeline(batches(), createGzip({ level: 1 }), async (gzipped: AsyncIterable<Buffer>) => {
          for await (const chunk of gzipped) chunks.push(chunk);
        });
      } catch {
        return;
      } finally {
        used.clear();
        kept.clear();
      }
      write(Buffer.concat(chunks));
    },
  };

  /** True when the pack is as it should be (every kept entry used, none added): it is only marked used, and the folder's bound drops the oldest. */
  function unchanged(): boolean {
    if (added || used.size !== kept.size || kept.size === 0) return false;
    saveCacheFile(file, false, () => '');
    return true;
  }

  /** The pack's bytes in batches of about BATCH_BYTES, taking the entries out of `used`. */
  function* batches(): Generator<Buffer> {
    let batch: Buffer[] = [header()];
    let bytes = 0;
    for (const [key, json] of used) {
      batch.push(Buffer.from(`\n${key}\t`), json);
      // Let go as it is batched: the batches are all that is still needed of it.
      used.delete(key);
      bytes += json.length;
      if (bytes < BATCH_BYTES) continue;
      yield Buffer.concat(batch);
      batch = [];
      bytes = 0;
    }
    if (batch.length) yield Buffer.concat(batch);
  }

  function header(): Buffer {
    return Buffer.from(JSON.stringify({ format: FORMAT, code }));
  }

  /** The pack's new bytes, or null when it is unchanged. */
  function unsaved(): Buffer | null {
    if (unchanged()) return null;
    const parts: Buffer[] = [header()];
    for (const [key, json] of used) parts.push(Buffer.from(`\n${key}\t`), json);
    return Buffer.concat(parts);
  }

  function write(gzipped: Buffer): void {
    saveCacheFile(file, true, () => gzipped);
  }
}

const BATCH_BYTES = 1024 * 1024;

/** A pack's entries by key, each its JSON's bytes (parsed when used: `parsed`); none when it is not whole or of other code. JSON escapes every newline and tab in its strings. */
function readPack(file: string, code: string): Map<string, Buffer> {
  return readPackLines(file, (line) => {
    try {
      const header = JSON.parse(line) as { format?: unknown; code?: unknown };
      return header.format === FORMAT && header.code === code;
    } catch {
      return false;
    }
  });
}

/** An entry's JSON as an entry, or undefined when it does not parse or has not the shape loadSite relies on. */
function parsed(json: string): CachedPage | undefined {
  try {
    const entry = JSON.parse(json) as CachedPage;
    return isEntry(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The shape loadSite relies on; anything else is compiled again. */
function isEntry(entry: CachedPage): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { page } = entry;
  return (
    Array.isArray(entry.links) &&
    Array.isArray(entry.images) &&
    typeof entry.outcome === 'string' &&
    Array.isArray(entry.mistakes) &&
    Array.isArray(entry.fragments) &&
    Array.isArray(entry.warnings) &&
    typeof page === 'object' &&
    page !== null &&
    typeof page.html === 'string' &&
    typeof page.markdown === 'string' &&
    Array.isArray(page.headings) &&
    Array.isArray(page.sections) &&
    typeof page.key === 'string' &&
    typeof page.localPath === 'string'
  );
}

/** A cache key: the hash of its parts, in order. */
export function cacheKey(...parts: readonly unknown[]): string {
  // One call on the parts joined (each followed by a NUL), no Hash object: a key per page.
  const text = parts.map((part) => `${typeof part === 'string' ? part : (JSON.stringify(part) ?? 'undefined')}\0`).join('');
  return hash('sha256', text, 'base64url');
}
