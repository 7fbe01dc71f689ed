import { negotiateLocale } from '../i18n/negotiate.ts';
import type { LocaleIndex } from '../i18n/locales.ts';
import { parseLocation } from '../routes/location.ts';
import { matchRoute } from '../routes/match.ts';
import { parseSearchQuery } from '../routes/search/query.ts';
import type { PageData } from '../routes/types.ts';
import type { PageStore } from './page-store.ts';
import type { SiteSearch } from './site-search.ts';

/**
 * Parse, then decide: what a page request gets, as a value. No ctx here; the
 * pages middleware turns the decision into HTTP.
 */
export type PageDecision =
  | { kind: 'page'; page: PageData }
  | { kind: 'redirect'; status: 302 | 308; location: string; negotiated: boolean }
  | { kind: 'reject'; status: 400 | 414; reason: string };

export type PageRequest = { path: string; search: string; cookie: string | undefined; acceptLanguage: string | undefined };

export type Decider = (request: PageRequest) => PageDecision;

export function createDecider(
  store: PageStore,
  siteSearch: Pick<SiteSearch, 'search'>,
  locales: readonly string[],
  index: LocaleIndex,
  defaultLocale: string,
): Decider {
  return ({ path, search, cookie, acceptLanguage }) => {
    const location = parseLocation(path, search, index);
    switch (location.kind) {
      case 'reject':
        return location;
      case 'redirect':
        return { kind: 'redirect', status: location.status, location: location.location, negotiated: false };
      case 'negotiate': {
        const locale = negotiateLocale({ cookie, acceptLanguage }, locales, defaultLocale);
        return { kind: 'redirect', status: 302, location: `/${locale}${location.rest}`, negotiated: true };
      }
      case 'page': {
        // The search page is made from the query, not from content.
        if (matchRoute(location.slug) === 'search') {
          const query = parseSearchQuery(search);
          if (query.kind === 'reject') return query;
          return { kind: 'page', page: store.searchPage(location.locale, query.query, siteSearch.search(location.locale, query.query)) };
        }
        const page = store.find(location.locale, location.slug);
        // The not-found page names the path decoded, as the visitor typed it; React escapes it.
        const shown = `/${location.locale}${location.slug ? `/${location.slug}` : ''}`;
        return { kind: 'page', page: page ?? store.notFound(location.locale, shown) };
      }
    }
  };
}
