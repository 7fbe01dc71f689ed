import { execFileSync } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';
import { splitFrontMatter } from '../src/server/content/front-matter.ts';
import { sourceFingerprint } from '../src/server/content/translation-record.ts';

// What git history adds to the translation status, where there is a `.git`: how far
// an outdated translation is behind, and records for a site that had none. The status
// itself never needs it (see translation-record.ts); a checkout without history
// (a shallow CI clone, a container build) simply has no detail.

/** How far a translation is behind its source: commits to the source since, days since the first of them, and their diff stat. */
export type Behind = { commits: number; days: number; diffstat: string };

type Commit = { hash: string; time: number };

function git(file: string, args: string[]): string {
  return execFileSync('git', ['-C', dirname(resolve(file)), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** True when `dir` is inside a git work tree. */
export function hasGit(dir: string): boolean {
  try {
    return git(resolve(dir, 'x'), ['rev-parse', '--is-inside-work-tree']).trim() === 'true';
  } catch {
    return false;
  }
}

/** The commits that changed `file`, newest first. */
function commitsOf(file: string): Commit[] {
  const out = git(file, ['log', '--format=%H %ct', '--', basename(file)]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, time] = line.split(' ');
      return { hash: hash!, time: Number(time) * 1000 };
    });
}

/** The fingerprint of a page file as it was at `commit`; null when it did not parse or was not there. */
function fingerprintAt(file: string, commit: string): string | null {
  try {
    const { data, body } = splitFrontMatter(git(file, ['show', `${commit}:./${basename(file)}`]), file);
    return sourceFingerprint({ ...data, body });
  } catch {
    return null;
  }
}

/**
 * How far a translation recorded at `recorded` is behind the source `file`: the newest
 * commit whose source matches the record, and what changed after it. Null when no
 * commit matches (the record was made from uncommitted text, or history is shallow).
 */
export function behind(file: string, recorded: string, now = Date.now()): Behind | null {
  const commits = commitsOf(file);
  const at = commits.findIndex((commit) => fingerprintAt(file, commit.hash) === recorded);
  if (at === -1) return null;
  const since = commits.slice(0, at);
  const first = since.at(-1);
  return {
    commits: since.length,
    days: first ? Math.floor((now - first.time) / 86_400_000) : 0,
    diffstat: git(file, ['diff', '--shortstat', commits[at]!.hash, '--', basename(file)]).trim(),
  };
}

/**
 * A record for a translation that has none, from history: the source as it was when the
 * translation was last committed. Null when either file has no history.
 */
export function seedRecord(sourceFile: string, translationFile: string): string | null {
  const translated = commitsOf(translationFile)[0];
  if (!translated) return null;
  const source = commitsOf(sourceFile).find((commit) => commit.time <= translated.time);
  return source ? fingerprintAt(sourceFile, source.hash) : null;
}
