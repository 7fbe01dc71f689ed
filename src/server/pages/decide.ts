import { negotiateLocale } from '../../i18n/negotiate.ts';
import type { LocaleIndex } from '../../i18n/locales.ts';
import { parseLocation, urlSafe } from '../../routes/location.ts';
import { matchListingPage, matchRoute } from '../../routes/match.ts';
import { parseSearchQuery, searchScope, searchVersion } from '../../routes/search/query.ts';
import type { PageData } from '../../routes/types.ts';
import type { SitePaths } from '../content/paths.ts';
import type { PageStore } from './page-store.ts';
import type { SiteSearch } from '../site/site-search.ts';

/** The search page for a decided search: its results kept or searched for (the locale's index loads off the event loop). */
export async function searchPageOf(
  { locale, query, version }: Extract<PageDecision, { kind: 'search' }>,
  store: Pick<PageStore, 'searchPage'>,
  search: Pick<SiteSearch, 'search'>,
): Promise<PageData> {
  return store.searchPage(locale, query, await search.search(searchScope(locale, version ?? null), query), version ?? null);
}

/**
 * Parse, then decide: what a page request gets, as a value. No ctx here; the
 * pages middleware turns the decision into HTTP.
 */
export type PageDecision =
  | { kind: 'page'; page: PageData }
  /** A search with a query: its page is made once the results are known (kept, or searched for). */
  /** `version`: an older docs version's pages are searched (`&v=`); absent for the latest. */
  | { kind: 'search'; locale: string; query: string; version?: string }
  | { kind: 'redirect'; status: 302 | 308; location: string; negotiated: boolean }
  | { kind: 'reject'; status: 400 | 414; reason: string };

/** `path` and `search`: the URL's, as sent (percent-encoded); the two headers negotiation reads. */
export type PageRequest = { path: string; search: string; cookie: string | undefined; acceptLanguage: string | undefined };

export type Decider = (request: PageRequest) => PageDecision;

export function createDecider(
  store: PageStore,
  paths: SitePaths,
  locales: readonly string[],
  index: LocaleIndex,
  defaultLocale: string,
): Decider {
  return ({ path, search, cookie, acceptLanguage }) => {
    const location = parseLocation(path, search, index);
    switch (location.kind) {
      case 'reject':
        return location;
      case 'redirect': {
        // The canonical form of a path may itself be a default path that this locale
        // localized (`/DE/about/` -> `/de/about` -> `/de/ueber-uns`): go there in one hop.
        const cut = location.location.indexOf('?');
        const [canonicalPath, query] =
          cut === -1 ? [location.location, ''] : [location.location.slice(0, cut), location.location.slice(cut)];
        const canonical = parseLocation(canonicalPath, query, index);
        const found = canonical.kind === 'page' ? paths.find(canonical.locale, canonical.slug) : undefined;
        const target = found && canonical.kind === 'page' ? paths.pathOf(canonical.locale, found.key) + query : location.location;
        return { kind: 'redirect', status: location.status, location: target, negotiated: false };
      }
      case 'negotiate': {
        const locale = negotiateLocale({ cookie, acceptLanguage }, locales, defaultLocale);
        // `/about` lands on the page's path in the chosen locale (`/de/ueber-uns`) in one hop.
        const found = paths.find(locale, location.slug);
        const target = found ? paths.pathOf(locale, found.key) + location.query : `/${locale}${location.rest}`;
        return { kind: 'redirect', status: 302, location: target, negotiated: true };
      }
      case 'page': {
        // `slug` is what the visitor asked for under the locale, decoded; a page is
        // found by it, and then known by its key (its file under pages/, the same
        // in every locale). Its own path in this locale may be spelled differently.
        const { locale, slug } = location;
        // The search page is made from the query, not from content; its slug is never localized.
        if (matchRoute(slug) === 'search') {
          const query = parseSearchQuery(search);
          if (query.kind === 'reject') return query;
          // Without a query there is nothing to search: the page asks for one.
          if (!query.query) return { kind: 'page', page: store.searchPage(locale, '', { total: 0, hits: [] }) };
          const version = searchVersion(search);
          return { kind: 'search', locale: locale, query: query.query, ...(version && { version }) };
        }
        // The not-found page names the path decoded, as the visitor typed it; React escapes it.
        const asked = `/${locale}${slug ? `/${slug}` : ''}`;
        const numbered = matchListingPage(slug);
        if (numbered) return listingPage(locale, numbered, path, search) ?? { kind: 'page', page: store.notFound(locale, asked) };
        const found = paths.find(locale, slug);
        if (found) {
          // One URL per page: the default locale's path here (`/de/about`), or another
          // spelling of the path (`%e6` for `%E6`), is a permanent redirect to it.
          const pagePath = paths.pathOf(locale, found.key);
          if (!found.canonical || pagePath !== path) {
            return { kind: 'redirect', status: 308, location: pagePath + urlSafe(search), negotiated: false };
          }
        }
        const page = found && store.find(locale, found.key);
        return { kind: 'page', page: page ?? store.notFound(locale, asked) };
      }
    }
  };

  /**
   * A numbered page of a section's listing (`<section>/~/<n>`): page 1 of a listing that
   * takes several is a 308 to the section's own URL, another spelling of the path a 308 to its one path, and anything
   * else (no such section, no listing, a number that is not one or past the last page)
   * undefined: the locale's 404.
   */
  function listingPage(
    locale: string,
    { section, number }: { section: string; number: number | null },
    path: string,
    search: string,
  ): PageDecision | undefined {
    const found = number === null ? undefined : paths.find(locale, section);
    if (!found || number === null) return undefined;
    if (number === 1) {
      const first = store.find(locale, found.key);
      if (first?.screen.kind !== 'docs' || !first.screen.listingPager) return undefined;
      return { kind: 'redirect', status: 308, location: first.path + urlSafe(search), negotiated: false };
    }
    const page = store.find(locale, found.key, number);
    if (!page) return undefined;
    if (page.path !== path) return { kind: 'redirect', status: 308, location: page.path + urlSafe(search), negotiated: false };
    return { kind: 'page', page };
  }
}
