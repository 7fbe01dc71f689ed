import type { Searcher } from '../routes/search-box.tsx';
import { scopeLocale } from '../routes/search/query.ts';
import type { SearchIndexes } from '../routes/types.ts';

/**
 * The browser's searchers, one per locale, made on the box's first focus: the
 * search code is a chunk of its own (not in the first load), and the locale's
 * index is fetched once, or, for a locale whose index is too large, every query
 * goes to the server's JSON. A failure is forgotten, so the next focus tries again.
 */
export function createSearchSource(indexes: SearchIndexes, build: string): (locale: string) => Promise<Searcher> {
  const searchers = new Map<string, Promise<Searcher>>();
  return (locale) => {
    let searcher = searchers.get(locale);
    if (!searcher) {
      const url = indexes[locale];
      // `locale` is a search scope: a locale, or an older docs version's pages in it (`en@0.1`).
      searcher = import('./searchers.ts').then((engine) =>
        url ? engine.indexSearcher(url, scopeLocale(locale)) : engine.serverSearcher(build, locale),
      );
      searchers.set(locale, searcher);
      searcher.catch(() => searchers.delete(locale));
    }
    return searcher;
  };
}
