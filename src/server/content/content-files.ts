// Every file of a site's content: the content folder's, and those of the docs' versions
// beside it (versions.ts), with their status, walked once. The snapshot's fingerprint
// (snapshot.ts) and the build's locale keys (scripts/locale-cache.ts) both read every file's
// name and status: on a large site the walk and its status calls were a good part of a
// rebuild, so the build walks once and hands the list to both.
import { type Dirent, existsSync, readdirSync, type Stats, statSync } from 'node:fs';
import { sep } from 'node:path';
import { versionsDirOf } from './versions.ts';

/**
 * One file: `name`, its path under its folder, led by the folder's label ('' for the content
 * folder, 'versions' for the versions folder) and a path separator; `path`, where it is.
 */
export type ContentFile = { name: string; path: string; stat: Stats };

/** The content folder's files, then the versions folder's (walkContentFiles's order). */
export function contentFiles(localesDir: string): ContentFile[] {
  const found: ContentFile[] = [];
  walkContentFiles(localesDir, (name, path, stat) => found.push({ name, path, stat }));
  return found;
}

/**
 * Each file of the content folder, then of the versions folder, to `each` as it is found: a
 * folder at a time, depth first, a folder's files (by name) before its folders (by name).
 * Server start-up hashes them as they come (snapshot.ts#contentFingerprint) and keeps none:
 * a versioned site has tens of thousands. A recursive listing of the whole tree, each name
 * joined to its folder and the lot sorted, cost more than the status calls themselves.
 */
export function walkContentFiles(localesDir: string, each: (name: string, path: string, stat: Stats) => void): void {
  walkFolder(localesDir, '', each);
  const versionsDir = versionsDirOf(localesDir);
  if (existsSync(versionsDir)) walkFolder(versionsDir, 'versions', each);
}

function walkFolder(dir: string, label: string, each: (name: string, path: string, stat: Stats) => void): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = `${dir}${sep}${entry.name}`;
    each(`${label}${sep}${entry.name}`, path, statSync(path));
  }
  for (const entry of entries) if (entry.isDirectory()) walkFolder(`${dir}${sep}${entry.name}`, `${label}${sep}${entry.name}`, each);
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
