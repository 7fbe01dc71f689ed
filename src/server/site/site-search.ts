// Search at run time: each locale's index loaded on its first search, from the compact
// block the build wrote beside the server (read off the event loop, then only views made
// on it), and the query answered with the same function the browser runs
// (src/routes/search/engine.ts). Answers are kept by (locale, the terms searched), so a
// repeated query, however it is spelled, costs a lookup.
import { existsSync, statSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import '../../i18n/all-stemmers.ts';
import { BoundedCache } from '../../routes/bounded-cache.ts';
import { readCompactIndex, compactIndex } from '../../routes/search/compact-index.ts';
import { parseIndexFile, queryTerms, type SearchIndex, type SearchResults, SEARCH_SLICE, searchSteps } from '../../routes/search/engine.ts';
import { PAGE_RESULTS } from '../../routes/search/page.ts';
import type { SearchIndexes } from '../../routes/types.ts';
import { StoredBody } from '../http/stored-body.ts';
import { MEMORY_BOUNDS } from '../memory-bounds.ts';
import type { Site } from '../content/site.ts';
import type { Manifest } from './manifest.ts';
import { hashedAssetUrl } from './hashed-asset.ts';
import { compactIndexPath, type IndexFile, indexUrl, makeIndexFiles, makeScopeIndex, searchScopes } from './search-indexes.ts';
import { indexFileOf } from '../../routes/search/index-writer.ts';
import { chunksText } from '../../routes/search/utf8-chunks.ts';
import { scopeLocale } from '../../routes/search/query.ts';

/** Search answers kept, by locale and terms (the visitors choose the keys: bounded in bytes; memory-bounds.ts). */
const RESULTS_CACHE_BYTES = MEMORY_BOUNDS.searchAnswersBytes;

export type SiteSearch = {
  /** For the browser: each locale's index URL, or null where the index is too large and the box asks the server. */
  indexes: SearchIndexes;
  /** An index file served from memory at its hashed URL; undefined for any other path. */
  asset(path: string): StoredBody | undefined;
  /**
   * A scope's index as a browser downloads it, for a host with no server to ask (`npm run
   * export`): its URL, and its bytes when they were made now (`made`). The build writes no
   * such file for an index too large to download (the server searches it itself), so that
   * one is made from its compact form (index-writer.ts#indexFileOf), named after its bytes.
   */
  downloadable(scope: string): { url: string; made?: Buffer };
  /**
   * The results for a query in a scope (a locale, or `en@0.1` for an older docs version's
   * pages: search/query.ts#searchScope): kept ones at once, others once the scope's index
   * is loaded. A scope no index has (a version that is not there) searches its locale.
   */
  search(scope: string, query: string): Promise<SearchResults>;
  /** Bytes held: the loaded indexes and the kept answers. */
  bytes(): number;
};

type Options = {
  site: Site;
  manifest: Manifest;
  distDir: string;
  /** The content is what the build indexed: its files are read instead of indexing again. */
  built: boolean;
  /** Largest index (gzip bytes) the browser downloads. */
  maxDownloadBytes: number;
  /**
   * Kept by `npm run dev` from one load of the content to the next: a locale whose
   * pages are the same objects keeps its index, and one whose pages changed has its
   * index made again when it is first asked for, not at each save. Until the dev
   * server restarts, such a locale keeps its choice between the browser's index and
   * the server's search.
   */
  memo?: SearchMemo;
};

export type SearchMemo = Map<string, { pages: readonly unknown[]; file: IndexSource }>;

export function prepareSearch({ site, manifest, distDir, built, maxDownloadBytes, memo }: Options): SiteSearch {
  // From a build: the index files it wrote, read when they are first needed. A large
  // site's indexes are megabytes each, so start-up only looks at their sizes, and a
  // locale nobody searches never costs memory.
  const scopes = site.locales.flatMap((locale) => searchScopes(site, locale));
  // The file of an index the build wrote the compact form of alone (too large to download), made from that form.
  const fileOf = (url: string) => [...indexFileOf(readCompactIndex(readFileSync(compactIndexPath(distDir, url))))];
  const fromBuild =
    built && scopes.every((scope) => manifest.search[scope] && existsSync(compactIndexPath(distDir, manifest.search[scope]!)));
  const files: IndexSource[] = fromBuild
    ? scopes.map((locale) => {
        const url = manifest.search[locale]!;
        const file = join(distDir, 'client', url);
        const compact = () => readFile(compactIndexPath(distDir, url));
        // No file: the build found it too large to download.
        if (!existsSync(file))
          return {
            locale,
            url,
            gzipBytes: Number.POSITIVE_INFINITY,
            json: () => chunksText(fileOf(url)),
            compact,
            serverOnly: true,
          };
        return { locale, url, gzipBytes: gzipSize(file), json: () => readFileSync(file, 'utf8'), compact };
      })
    : memo
      ? scopes.map((scope) => remembered(site, scope, memo))
      : makeIndexFiles(site).map(madeNow);

  const loaded = new Map<string, Promise<SearchIndex>>();
  let indexBytes = 0;
  const assets = new Map<string, StoredBody | (() => StoredBody)>();
  const indexes: SearchIndexes = {};
  for (const { locale, url, gzipBytes, json } of files) {
    const small = gzipBytes <= maxDownloadBytes;
    indexes[locale] = small ? url : null;
    // Served from memory at its hashed URL (also when the content changed since the build).
    if (small) assets.set(url, memo ? lazyBody(json) : new StoredBody(Buffer.from(json())));
  }
  const source = new Map(files.map((file) => [file.locale, file]));
  const indexOf = (locale: string): Promise<SearchIndex> => {
    let index = loaded.get(locale);
    if (!index) {
      index = source
        .get(locale)!
        .compact()
        .then((block) => {
          const read = readCompactIndex(block);
          indexBytes += read.bytes;
          return read;
        });
      loaded.set(locale, index);
    }
    return index;
  };
  const answers = new BoundedCache<SearchResults>(
    RESULTS_CACHE_BYTES,
    (results, key) => 2 * key.length + 2 * JSON.stringify(results).length,
  );
  return {
    indexes,
    asset: (path) => {
      const body = assets.get(path);
      return typeof body === 'function' ? body() : body;
    },
    downloadable(scope) {
      const { url, serverOnly } = source.get(scope)!;
      if (!serverOnly) return { url };
      const chunks = fileOf(url);
      return { url: indexUrl(scope, chunks), made: Buffer.concat(chunks) };
    },
    async search(asked, query) {
      const locale = source.has(asked) ? asked : scopeLocale(asked);
      // The terms the engine would walk name the answer: `Caché` and `cache` are one search.
      const terms = queryTerms(query, scopeLocale(locale));
      if (terms.length === 0) return { total: 0, hits: [] };
      const key = `${locale}
${terms.join(' ')}`;
      const kept = answers.get(key);
      if (kept) return kept;
      // One slice of the search per turn of the event loop: requests that arrive meanwhile are answered between slices.
      const steps = searchSteps(await indexOf(locale), terms, PAGE_RESULTS, SEARCH_SLICE);
      let step = steps.next();
      while (!step.done) {
        await nextTurn();
        step = steps.next();
      }
      const results = step.value;
      answers.set(key, results);
      return results;
    },
    bytes: () => indexBytes + answers.bytes,
  };
}

/** `serverOnly`: the build wrote no file a browser downloads, and `url` names its compact form (see `downloadable`). */
type IndexSource = {
  locale: string;
  url: string;
  gzipBytes: number;
  json: () => string;
  compact: () => Promise<Uint8Array>;
  serverOnly?: boolean;
};

/** An index made now (the content changed since the build): its compact form is made on the locale's first search. */
function madeNow({ locale, url, json }: IndexFile): IndexSource {
  return { locale, url, gzipBytes: gzipSync(json, { level: 9 }).length, json: () => json, compact: compactOf(() => json) };
}

function compactOf(json: () => string): () => Promise<Uint8Array> {
  let block: Uint8Array | undefined;
  return async () => (block ??= compactIndex(parseIndexFile(json())));
}

/** A locale's index as `memo` holds it: the same when its pages are, else made on first use (see Options.memo). */
function remembered(site: Site, locale: string, memo: SearchMemo): IndexSource {
  const pages = [...site.pages.get(scopeLocale(locale))!.values()];
  const kept = memo.get(locale);
  if (kept && kept.pages.length === pages.length && kept.pages.every((page, i) => page === pages[i])) return kept.file;
  let file: IndexSource;
  if (!kept) file = madeNow(makeScopeIndex(site, locale));
  else {
    let json: string | undefined;
    const made = () => (json ??= makeScopeIndex(site, locale).json);
    // A name of its own for this version of the content (the real hash needs the index made).
    const url = hashedAssetUrl(`search-${locale}`, `${kept.file.url} ${performance.now()}`);
    file = { locale, url, gzipBytes: kept.file.gzipBytes, json: made, compact: compactOf(made) };
  }
  memo.set(locale, { pages, file });
  return file;
}

function lazyBody(json: () => string): () => StoredBody {
  let body: StoredBody | undefined;
  return () => (body ??= new StoredBody(Buffer.from(json())));
}

/** The size of the gzip sibling the build wrote (gzip -9), or of the file gzipped now when there is none. */
function gzipSize(file: string): number {
  try {
    return statSync(`${file}.gz`).size;
  } catch {
    return gzipSync(readFileSync(file), { level: 9 }).length;
  }
}
