import { SEARCH_SLUG } from '../routes/search/query.ts';
import type { SearchChrome } from '../routes/search/page.ts';
import type { LocaleLink, PageData, SearchIndexes } from '../routes/types.ts';
import { makeClientIntl } from './intl.ts';
import type { LocalPages } from './page-loader.ts';
import type { createSearchSource } from './search.ts';

/**
 * Search pages, made in the browser from the locale's index with the engine and the
 * page maker the server uses (same index, same results, same page), wherever the
 * index is downloadable: no request for a query, and a static host, which has no
 * server to run one, shows the same results. A locale whose index is too large
 * (null) asks the server, as before. The work is in the search chunk
 * (search-engine.ts#localSearchPage): nothing of it in the first load.
 */
/**
 * What each locale's pages share (header links at localized paths, the feed link),
 * from the pages the client has shown or loaded: a search page made here needs it.
 */
const chromes = new Map<string, SearchChrome>();

export function noteLocale({ locale, nav, head }: PageData): void {
  chromes.set(locale, { nav, links: head.links, meta: [], jsonLd: null });
}

export function localPages(
  indexes: SearchIndexes,
  source: ReturnType<typeof createSearchSource>,
  build: string,
  locales: readonly LocaleLink[],
): LocalPages {
  return (key, messages) => {
    // A page key: the path, and a search's `?q=`.
    const [path = '', search = ''] = key.split('?', 2);
    const locale = path.split('/')[1] ?? '';
    const chrome = chromes.get(locale);
    // A locale none of whose pages was seen yet: what its pages share is unknown here, ask for the page.
    if (path !== `/${locale}/${SEARCH_SLUG}` || !indexes[locale] || !chrome) return null;
    return import('./search-engine.ts').then((engine) =>
      engine.localSearchPage({ search, locale, chrome, messages, source, build, locales, makeIntl: makeClientIntl }),
    );
  };
}
