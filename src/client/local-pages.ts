import { SEARCH_SLUG } from '../routes/search/query.ts';
import type { LocaleLink, NavEntry, PageData, SearchIndexes } from '../routes/types.ts';
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
/** Each locale's header links (localized paths), from the pages the client has shown or loaded. */
const navs = new Map<string, NavEntry[]>();

export function noteNav(page: PageData): void {
  navs.set(page.locale, page.nav);
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
    const nav = navs.get(locale);
    // A locale none of whose pages was seen yet: its header links are unknown here, ask for the page.
    if (path !== `/${locale}/${SEARCH_SLUG}` || !indexes[locale] || !nav) return null;
    return import('./search-engine.ts').then((engine) =>
      engine.localSearchPage({ search, locale, nav, messages, source, build, locales, makeIntl: makeClientIntl }),
    );
  };
}
