// The search page's data, made from a query and its results: by the server for
// `/<locale>/search?q=` and by the browser, which runs the same index with the same
// engine (a static host has no server to ask). One function, so both make the same page.
import type { MessageIntl } from '../../i18n/intl.ts';
import type { SearchResults } from './engine.ts';
import { SEARCH_SLUG, searchPath } from './query.ts';
import type { Head, LocaleLink, NavEntry, PageData } from '../types.ts';

/** Results a search page lists (the server's JSON for the box too). */
export const PAGE_RESULTS = 10;

type Parts = {
  build: string;
  /** The page's locale's translator (its locale is the page's). */
  intl: MessageIntl;
  /**
   * What every page of the locale shares: the header's links (localized paths) and the
   * head's locale-wide tags (its feed link); any page of that locale has them.
   */
  chrome: { nav: NavEntry[] } & Pick<Head, 'links'>;
  /** Every locale of the site, for the switcher (any page's `locales` will do: only locale, name and dir are read). */
  locales: readonly LocaleLink[];
  query: string;
  results: SearchResults;
  /** The older docs version searched, or null for the latest. */
  version?: string | null;
};

/** `noindex` (no canonical); the switcher keeps the query. */
export function searchPageData({
  build,
  intl,
  chrome: { nav, ...shared },
  locales,
  query,
  results: { total, hits },
  version = null,
}: Parts): PageData {
  const { locale } = intl;
  const title = query ? intl.formatMessage({ id: 'search.titleWithQuery' }, { query }) : intl.formatMessage({ id: 'search.title' });
  return {
    build,
    status: 200,
    locale,
    dir: locales.find((link) => link.locale === locale)?.dir ?? 'ltr',
    path: `/${locale}/${SEARCH_SLUG}`,
    head: {
      title: `${title} · ${intl.formatMessage({ id: 'site.name' })}`,
      description: intl.formatMessage({ id: 'search.title' }),
      // No canonical: the document says noindex, and the sitemap never lists it.
      canonical: null,
      alternates: [],
      ...shared,
      // Nothing to share, nor to describe as structured data: a page of results.
      meta: [],
      jsonLd: null,
    },
    nav,
    locales: locales.map((link) => ({
      locale: link.locale,
      name: link.name,
      path: searchPath(link.locale, query, version),
      dir: link.dir,
    })),
    fallback: null,
    outdated: null,
    updated: null,
    edit: null,
    screen: { kind: 'search', query, total, hits: hits.slice(0, PAGE_RESULTS), ...(version && { version }) },
  };
}
