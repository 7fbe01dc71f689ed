// Stamps of files, for the build's caches that hold what a tool made of them (the bundles:
// bundle-cache.ts; the build's own compiled script: compiled-build.mjs). A stamp is a
// file's size, modification and status-change times and inode: an edit, an atomic save (a
// new inode) and a file written over in place each change it. Plain JavaScript, so that
// `npm run build`'s launcher can check them before any TypeScript loader is started.
import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A file whose status changed this long before a tool began to read it, or later, is not
 * trusted to be the one it read (the file system's clock is coarser than the process's):
 * no stamps are kept, and the next build makes the output again.
 */
const SETTLED_MS = 2000;

/** The stamp of `path` under `root` ('' when it is missing). */
export function stampOf(root, path) {
  try {
    const { size, mtimeMs, ctimeMs, ino } = statSync(join(root, path));
    return `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
  } catch {
    return '';
  }
}

/**
 * Each path's stamp, for output made by a tool that began to read them at `startedAt`
 * (Date.now()); null when one of them changed since, or just before.
 */
export function settledStamps(root, paths, startedAt) {
  const stamps = [];
  for (const path of paths) {
    let stat = null;
    try {
      stat = statSync(join(root, path));
    } catch {
      // Missing: its stamp is '', and its being made is a change.
    }
    if (stat && stat.ctimeMs > startedAt - SETTLED_MS) return null;
    stamps.push([path, stat ? `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}` : '']);
  }
  return stamps;
}

/** Whether every kept stamp is its path's stamp now. */
export function stampsHold(root, stamps) {
  return Array.isArray(stamps) && stamps.every(([path, stamp]) => stampOf(root, path) === stamp);
}
