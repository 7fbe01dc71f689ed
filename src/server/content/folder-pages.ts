import { join, relative } from 'node:path';
import type { FrontMatter } from './front-matter.ts';
import type { PageKey } from './paths.ts';

// A docs folder without an `index.md` still is a section: the Starlight and
// Docusaurus way, its page is made (titled by the folder's name, listing its pages)
// rather than its pages hanging loose in the top level with a 404 for its URL.

/** A page made for a docs folder that has no `index.md` in the default locale. */
export type FolderPage = { key: PageKey; front: FrontMatter; folder: string };

/**
 * The docs folders of the default locale's `keys` that have no page of their own
 * (`docs/guides` for `docs/guides/install` without `docs/guides/index.md`): each
 * with front matter titled by its last segment, and its folder (for the build's note).
 */
export function folderPages(keys: Iterable<PageKey>, pagesDir: string): FolderPage[] {
  const all = new Set(keys);
  const made = new Map<PageKey, FolderPage>();
  for (const key of all) {
    if (!key.startsWith('docs/')) continue;
    for (let at = key.slice(0, key.lastIndexOf('/')); at.includes('/'); at = at.slice(0, at.lastIndexOf('/'))) {
      if (all.has(at) || made.has(at)) continue;
      const name = at.slice(at.lastIndexOf('/') + 1);
      made.set(at, {
        key: at,
        front: { title: name, description: name },
        folder: relative(process.cwd(), join(pagesDir, at)) || at,
      });
    }
  }
  return [...made.values()].sort((a, b) => a.key.localeCompare(b.key));
}
