// Search at run time: each locale's index loaded once at start-up from the very
// bytes the browser downloads, the query answered with the same function the
// browser runs (src/routes/search/engine.ts).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadSearchIndex, type SearchIndex, type SearchResults, searchIndex } from '../../routes/search/engine.ts';
import { PAGE_RESULTS } from '../../routes/search/page.ts';
import type { SearchIndexes } from '../../routes/types.ts';
import { StoredBody } from '../http/stored-body.ts';
import type { Site } from '../content/site.ts';
import type { Manifest } from './manifest.ts';
import { makeIndexFiles } from './search-indexes.ts';

export type SiteSearch = {
  /** For the browser: each locale's index URL, or null where the index is too large and the box asks the server. */
  indexes: SearchIndexes;
  /** An index file served from memory at its hashed URL; undefined for any other path. */
  asset(path: string): StoredBody | undefined;
  search(locale: string, query: string): SearchResults;
};

type Options = {
  site: Site;
  manifest: Manifest;
  distDir: string;
  /** The content is what the build indexed: its files are read instead of indexing again. */
  built: boolean;
  /** Largest index (gzip bytes) the browser downloads. */
  maxDownloadBytes: number;
};

export function prepareSearch({ site, manifest, distDir, built, maxDownloadBytes }: Options): SiteSearch {
  // From a build: the index files it wrote, read when they are first needed. A large
  // site's indexes are megabytes each, so start-up only looks at their sizes, and a
  // locale nobody searches never costs memory.
  const fromBuild = built && site.locales.every((locale) => manifest.search[locale]);
  const files: IndexSource[] = fromBuild
    ? site.locales.map((locale) => {
        const url = manifest.search[locale]!;
        const file = join(distDir, 'client', url);
        return { locale, url, gzipBytes: gzipSize(file), json: () => readFileSync(file, 'utf8') };
      })
    : makeIndexFiles(site).map(({ locale, url, json }) => ({
        locale,
        url,
        gzipBytes: gzipSync(json, { level: 9 }).length,
        json: () => json,
      }));

  const loaded = new Map<string, SearchIndex>();
  const assets = new Map<string, StoredBody>();
  const indexes: SearchIndexes = {};
  for (const { locale, url, gzipBytes, json } of files) {
    const small = gzipBytes <= maxDownloadBytes;
    indexes[locale] = small ? url : null;
    // Served from memory at its hashed URL (also when the content changed since the build).
    if (small) assets.set(url, new StoredBody(Buffer.from(json())));
  }
  const source = new Map(files.map((file) => [file.locale, file]));
  const indexOf = (locale: string): SearchIndex => {
    let index = loaded.get(locale);
    if (!index) {
      index = loadSearchIndex(source.get(locale)!.json());
      loaded.set(locale, index);
    }
    return index;
  };
  return {
    indexes,
    asset: (path) => assets.get(path),
    search: (locale, query) => searchIndex(indexOf(locale), query, PAGE_RESULTS),
  };
}

type IndexSource = { locale: string; url: string; gzipBytes: number; json: () => string };

/** The size of the gzip sibling the build wrote (gzip -9), or of the file gzipped now when there is none. */
function gzipSize(file: string): number {
  try {
    return statSync(`${file}.gz`).size;
  } catch {
    return gzipSync(readFileSync(file), { level: 9 }).length;
  }
}
