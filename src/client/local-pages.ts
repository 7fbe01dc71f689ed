import { SEARCH_SLUG } from '../routes/search/query.ts';
import type { PageData, SearchIndexes } from '../routes/types.ts';
import { intlFor } from './client-intl.ts';
import type { LocalPages } from './page-loader.ts';
import type { createSearchSource } from './search.ts';

/**
 * A page of each locale the client has shown or loaded: what its pages share (the
 * header's links at localized paths, the feed link) is what a search page made
 * here needs.
 */
const seen = new Map<string, PageData>();

export function noteLocale(page: PageData): void {
  seen.set(page.locale, page);
}

/**
 * Search pages, made in the browser from the locale's index with the engine and the
 * page maker the server uses (same index, same results, same page), wherever the
 * index is downloadable: no request for a query, and a static host, which has no
 * server to run one, shows the same results. A locale whose index is too large
 * (null) asks the server, as before. The work is in the search chunk
 * (search-engine.ts#localSearchPage): nothing of it in the first load.
 */
export function localPages(
  indexes: SearchIndexes,
  source: ReturnType<typeof createSearchSource>,
  /** The document's page: its build, the site's locales, and the first page seen. */
  first: PageData,
): LocalPages {
  // Its head was read back from the document (readHead): a search page made in its
  // locale takes the header and feed link from it, with no request.
  noteLocale(first);
  const { build, locales } = first;
  return (key, messages) => {
    // A page key: the path, and a search's `?q=`.
    const [path = '', search = ''] = key.split('?', 2);
    const locale = path.split('/')[1] ?? '';
    if (path !== `/${locale}/${SEARCH_SLUG}` || !indexes[locale]) return null;
    return import('./searchers.ts').then((engine) =>
      engine.localSearchPage({ search, locale, like: seen.get(locale), messages, source, build, locales, intlFor }),
    );
  };
}
