// Every file of a site's content: the content folder's, and those of the docs' versions
// beside it (versions.ts), with their status, walked once. The snapshot's fingerprint
// (snapshot.ts) and the build's locale keys (scripts/locale-cache.ts) both read every file's
// name and status: on a large site the walk and its status calls were a good part of a
// rebuild, so the build walks once and hands the list to both.
import { existsSync, readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { versionsDirOf } from './versions.ts';

/**
 * One file: `name`, its path under its folder, led by the folder's label ('' for the content
 * folder, 'versions' for the versions folder) and a path separator; `path`, where it is.
 */
export type ContentFile = { name: string; path: string; stat: Stats };

/** The content folder's files, then the versions folder's, each folder's in the order of their paths. */
export function contentFiles(localesDir: string): ContentFile[] {
  const versionsDir = versionsDirOf(localesDir);
  const roots: [dir: string, label: string][] = [[localesDir, '']];
  if (existsSync(versionsDir)) roots.push([versionsDir, 'versions']);
  const found: ContentFile[] = [];
  for (const [dir, label] of roots) {
    const paths = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    // Each name as its folder's label and the part after the folder: path.relative per file
    // resolved both paths each time, most of the walk's cost on a versioned site.
    for (const path of paths) found.push({ name: `${label}${path.slice(dir.length)}`, path, stat: statSync(path) });
  }
  return found;
}
