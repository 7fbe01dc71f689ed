// The dev server's git dates (see gitDatesReader).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { contentDates } from '../src/server/content/git-dates.ts';

/**
 * The content's dates from git (git-dates.ts), read again only when the repository's HEAD
 * has moved since (a commit, checkout, reset or pull appends to its reflog): a save changes
 * no commit, and a `git log` of the whole folder at each save was a large part of a reload.
 * Without a reflog to look at, they are read at each load; without a repository when the
 * server starts, there are none.
 */
export function gitDatesReader(localesDir: string): () => ReadonlyMap<string, string> {
  const where = spawnSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: localesDir, encoding: 'utf8' });
  if (where.error || where.status !== 0) return () => new Map();
  const gitDir = where.stdout.trim();
  let kept: { head: string; dates: ReadonlyMap<string, string> } | undefined;
  return () => {
    const head = stamp(join(gitDir, 'HEAD'), join(gitDir, 'logs', 'HEAD'));
    if (kept && head !== undefined && kept.head === head) return kept.dates;
    const read = contentDates(localesDir, (message) => console.warn(`warning: ${message}`));
    kept = head === undefined ? undefined : { head, dates: read };
    return read;
  };
}

/** The files' sizes and modification times; undefined when one is missing. */
function stamp(...files: string[]): string | undefined {
  try {
    return files
      .map((file) => {
        const { size, mtimeMs } = statSync(file);
        return `${size}:${mtimeMs}`;
      })
      .join();
  } catch {
    return undefined;
  }
}
