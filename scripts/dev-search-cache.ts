// The search indexes a dev server made, kept on disk for the next one (`npm run dev`
// restarts its server after a change under src/): one file per content folder, beside the
// compiled pages (dev-server.ts). An entry is a scope's index (its JSON, URL and gzip size)
// under the key the build's index cache uses: the compiler's code hash, the scope and every
// indexed page's path, title, keywords, fallback and sections (build-content.ts). Making
// the indexes (words cut, stemmed, gzipped to weigh them) was most of a restart.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Site } from '../src/server/content/site.ts';
import { cacheKey } from '../src/server/content/page-cache.ts';
import { indexedPages, searchScopes } from '../src/server/site/search-indexes.ts';
import type { SearchMemo } from '../src/server/site/site-search.ts';
import { compactIndex } from '../src/routes/search/compact-index.ts';
import { parseIndexFile } from '../src/routes/search/engine.ts';
import { scopeLocale, scopeVersion } from '../src/routes/search/query.ts';

type Kept = { key: string; url: string; gzipBytes: number; json: string };

/** Each scope of the site and its key, under `code`. */
function scopeKeys(site: Site, code: string): [scope: string, key: string][] {
  return site.locales.flatMap((locale) =>
    searchScopes(site, locale).map((scope): [string, string] => [
      scope,
      cacheKey(code, scope, indexedPages(site, scopeLocale(scope), scopeVersion(scope))),
    ]),
  );
}

/**
 * Puts in `memo` each scope's index kept in `file` whose key is the same now: the server
 * then serves it as made (site-search.ts's memo holds it while the locale's pages are
 * these). A missing, unreadable or foreign file seeds nothing. Returns the keys the file
 * holds, for `keepSearchIndexes`.
 */
export function seedSearchMemo(file: string, code: string, site: Site, memo: SearchMemo): ReadonlySet<string> {
  let kept: Map<string, Kept>;
  try {
    const entries = JSON.parse(gunzipSync(readFileSync(file)).toString()) as Kept[];
    kept = new Map(entries.map((entry) => [entry.key, entry]));
  } catch {
    return new Set();
  }
  for (const [scope, key] of scopeKeys(site, code)) {
    const entry = kept.get(key);
    if (!entry || typeof entry.json !== 'string' || typeof entry.url !== 'string' || typeof entry.gzipBytes !== 'number') continue;
    const { json, url, gzipBytes } = entry;
    let compact: Uint8Array | undefined;
    memo.set(scope, {
      pages: [...site.pages.get(scopeLocale(scope))!.values()],
      file: { locale: scope, url, gzipBytes, json: () => json, compact: async () => (compact ??= compactIndex(parseIndexFile(json))) },
    });
  }
  return new Set(kept.keys());
}

/**
 * Writes the indexes `memo` holds for the site (each made or seeded at this load) to `file`,
 * replacing what it held; not when it holds those already (`held`: its keys, as
 * `seedSearchMemo` read them), as after a save that changed code only.
 */
export function keepSearchIndexes(file: string, code: string, site: Site, memo: SearchMemo, held: ReadonlySet<string>): void {
  const entries: { key: string; made: NonNullable<ReturnType<SearchMemo['get']>>['file'] }[] = [];
  for (const [scope, key] of scopeKeys(site, code)) {
    const made = memo.get(scope)?.file;
    if (made) entries.push({ key, made });
  }
  if (entries.length === held.size && entries.every(({ key }) => held.has(key))) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const kept: Kept[] = entries.map(({ key, made }) => ({ key, url: made.url, gzipBytes: made.gzipBytes, json: made.json() }));
    writeFileSync(temporary, gzipSync(JSON.stringify(kept), { level: 1 }));
    renameSync(temporary, file);
  } catch {
    // Not kept: the next server makes the indexes again.
    rmSync(temporary, { force: true });
  }
}
