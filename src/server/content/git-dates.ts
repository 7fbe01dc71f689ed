import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * When each file of the content folder last changed, from git: its path under the
 * content folder (`en/pages/about.md`, always with `/`) and the author date of the
 * newest commit that touched it, as a UTC ISO date-time.
 *
 * One `git log` over the whole folder, newest first, read once: a file's first
 * appearance is its date. One call per file (Docusaurus's and VitePress's way) costs a
 * process per page, which at thousands of pages is most of a build.
 *
 * A shallow clone has no history before its boundary commits, and git lists every file
 * as added in them: the date of a file seen first there is only "no later than", so it
 * is left out (the page falls back to `updated:` front matter or shows no date) rather
 * than shown as a change that did not happen then. Fetch the whole history in CI
 * (`fetch-depth: 0`) to have them.
 *
 * Null when there is no git or the folder is not in a repository (a container built
 * without .git): the build's snapshot carries the dates it found.
 */
export type GitDates = { dates: Map<string, string>; shallow: boolean; unknown: number };

/** Output git may write at most (about 60 bytes per file per commit): past it, the dates are not read. */
const MAX_LOG_BYTES = 512 * 1024 * 1024;

export function gitDates(contentDir: string): GitDates | null {
  const git = (args: string[]) =>
    spawnSync('git', ['-c', 'core.quotePath=false', ...args], { cwd: contentDir, encoding: 'utf8', maxBuffer: MAX_LOG_BYTES });
  const where = git(['rev-parse', '--absolute-git-dir', '--is-shallow-repository']);
  if (where.error || where.status !== 0) return null;
  const [gitDir = '', shallowFlag] = where.stdout.trim().split('\n');
  const boundaries = shallowFlag === 'true' ? shallowCommits(gitDir) : new Set<string>();
  // %x00 starts each commit, so a file name can never be mistaken for one: NUL is in no path.
  const log = git(['log', '--format=%x00%H %aI', '--name-only', '--no-renames', '--relative', '--', '.']);
  if (log.error || log.status !== 0) return null;
  const dates = new Map<string, string>();
  const seen = new Set<string>();
  let unknown = 0;
  for (const commit of log.stdout.split('\0')) {
    if (!commit) continue;
    const [head = '', ...files] = commit.split('\n');
    const [hash = '', date = ''] = head.split(' ');
    const boundary = boundaries.has(hash);
    const iso = new Date(date).toISOString().replace(/\.000Z$/, 'Z');
    for (const file of files) {
      if (!file || seen.has(file)) continue;
      seen.add(file);
      if (boundary) unknown++;
      else dates.set(file, iso);
    }
  }
  return { dates, shallow: boundaries.size > 0, unknown };
}

/** The commits a shallow clone's history stops at (`<git dir>/shallow`, one hash a line). */
function shallowCommits(gitDir: string): Set<string> {
  try {
    const file = isAbsolute(gitDir) ? join(gitDir, 'shallow') : gitDir;
    return new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean));
  } catch {
    return new Set();
  }
}

/**
 * The dates for loadSite: git's, with a warning when a shallow clone hides some;
 * empty without git (front matter `updated:` is then all there is).
 */
export function contentDates(contentDir: string, warn: (message: string) => void): ReadonlyMap<string, string> {
  const found = gitDates(contentDir);
  if (!found) return new Map();
  if (found.unknown > 0) {
    warn(
      `${found.unknown} content files have no "last updated" date: this is a shallow git clone, whose oldest commit ` +
        'is not when they changed (fetch the whole history, e.g. fetch-depth: 0, to date them)',
    );
  }
  return found.dates;
}
