// Search index files kept between builds: a scope's index (a locale's, or a locale's for an
// older docs version) is made again only when what it indexes changed. A frozen docs
// version's indexes, and every locale's where no page changed, are copied instead of
// made (stemming every page's text is about a third of a locale's build).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** The files of one index, as build-content.ts stages them: the JSON, its .br and .gz, and its compact form. */
export type IndexFiles = { file: string; compact: string };

const PARTS = ['index.json', 'index.json.br', 'index.json.gz', 'index.bin'] as const;

function sources({ file, compact }: IndexFiles): string[] {
  return [file, `${file}.br`, `${file}.gz`, compact];
}

/**
 * Copies the cached index of `key` to `target`'s paths; returns its JSON, or null when the
 * cache has no whole entry for it (missing, cut off, or its files not the bytes recorded
 * when it was written: then it is made again).
 */
export function restoreIndex(dir: string, key: string, target: IndexFiles): string | null {
  const entry = join(dir, key.slice(0, 2), key);
  try {
    const sums = JSON.parse(readFileSync(join(entry, 'sums.json'), 'utf8')) as unknown;
    if (!Array.isArray(sums) || sums.length !== PARTS.length) return null;
    const bytes = PARTS.map((part) => readFileSync(join(entry, part)));
    if (bytes.some((part, i) => sha256(part) !== sums[i])) return null;
    for (const [i, file] of sources(target).entries()) writeFileSync(file, bytes[i]!);
    // Used now: the oldest entries are the ones dropped past the folder's bound.
    const now = new Date();
    for (const part of [...PARTS, 'sums.json']) utimesSync(join(entry, part), now, now);
    return bytes[0]!.toString();
  } catch {
    return null;
  }
}

/** Keeps the staged index files under `key` (written to a temporary folder, then renamed: a reader never sees half). */
export function keepIndex(dir: string, key: string, staged: IndexFiles): void {
  const entry = join(dir, key.slice(0, 2), key);
  const temporary = `${entry}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(temporary, { recursive: true });
    const sums = sources(staged).map((file, i) => {
      copyFileSync(file, join(temporary, PARTS[i]!));
      return sha256(readFileSync(file));
    });
    writeFileSync(join(temporary, 'sums.json'), JSON.stringify(sums));
    rmSync(entry, { recursive: true, force: true });
    renameSync(temporary, entry);
  } catch {
    // A cache that cannot be written costs the next build time, never this one's output.
    rmSync(temporary, { recursive: true, force: true });
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
