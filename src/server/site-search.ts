// Search at run time: each locale's index loaded once at start-up from the very
// bytes the browser downloads, the query answered with the same function the
// browser runs (src/routes/search/engine.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadSearchIndex, type SearchIndex, type SearchResults, searchIndex } from '../routes/search/engine.ts';
import type { SearchIndexes } from '../routes/types.ts';
import { StoredBody } from './compression.ts';
import type { Site } from './content/site.ts';
import type { Manifest } from './manifest.ts';
import { type IndexFile, makeIndexFiles } from './search-indexes.ts';

/** Results a search page lists (and the JSON the box reads when it searches on the server). */
export const PAGE_RESULTS = 10;

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
  const files: IndexFile[] =
    built && site.locales.every((locale) => manifest.search[locale])
      ? site.locales.map((locale) => {
          const url = manifest.search[locale]!;
          return { locale, url, json: readFileSync(join(distDir, 'client', url), 'utf8') };
        })
      : makeIndexFiles(site);

  const loaded = new Map<string, SearchIndex>();
  const assets = new Map<string, StoredBody>();
  const indexes: SearchIndexes = {};
  for (const { locale, url, json } of files) {
    loaded.set(locale, loadSearchIndex(json));
    const body = new StoredBody(Buffer.from(json));
    const small = gzipSync(body.identity, { level: 6 }).length <= maxDownloadBytes;
    indexes[locale] = small ? url : null;
    if (small) assets.set(url, body);
  }
  return {
    indexes,
    asset: (path) => assets.get(path),
    search: (locale, query) => searchIndex(loaded.get(locale)!, query, PAGE_RESULTS),
  };
}
