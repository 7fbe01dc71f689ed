// Loaded on the search box's first focus (see search.ts), never in the first load.
import { dataUrl, pageDataKey } from '../routes/page-data.ts';
import type { Searcher } from '../routes/search-box.tsx';
import { loadSearchIndex, searchIndex } from '../routes/search/engine.ts';
import type { LocaleMessages, MessageIntl } from '../i18n/intl.ts';
import { loadStemmer } from '../i18n/stemmers.ts';
import { searchPageData } from '../routes/search/page.ts';
import { parseSearchQuery, scopeLocale, scopeVersion, searchScope, searchVersion, VERSION_PARAM } from '../routes/search/query.ts';
import type { LocaleLink, PageData, Payload } from '../routes/types.ts';

/** Results kept per query, as many as the server's page lists (the box shows the first few). */
const RESULTS = 20;
/** Pause after a keystroke before asking the server: a word typed quickly is one request. */
const SERVER_DELAY_MS = 120;

/** Searches the locale's index in the browser: the same index, stemmer and function as the server. */
export async function indexSearcher(url: string, locale: string): Promise<Searcher> {
  const [response] = await Promise.all([fetch(url, { credentials: 'same-origin' }), loadStemmer(locale)]);
  if (!response.ok) throw new Error(`search index: ${response.status}`);
  const index = loadSearchIndex(await response.text());
  return async (query) => searchIndex(index, query, RESULTS);
}

/** Asks the server: the search page's JSON (its page data), for indexes too large to download. */
export function serverSearcher(build: string, scope: string): Searcher {
  const locale = scopeLocale(scope);
  const version = scopeVersion(scope);
  return async (query, signal) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, SERVER_DELAY_MS);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    const scoped = version ? `&${VERSION_PARAM}=${encodeURIComponent(version)}` : '';
    const key = pageDataKey({ pathname: `/${locale}/search`, search: `?q=${encodeURIComponent(query)}${scoped}` });
    const response = await fetch(dataUrl(build, key), { signal, credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`search: ${response.status}`);
    const { page } = (await response.json()) as Payload;
    if (page.screen.kind !== 'search') throw new Error('search: not a search page');
    return { total: page.screen.total, hits: page.screen.hits };
  };
}

/**
 * The search page for a URL's query, made here as the server makes it (see
 * local-pages.ts). A query the server would refuse fails, and the document is loaded instead.
 */
export async function localSearchPage({
  search,
  locale,
  like,
  messages,
  source,
  build,
  locales,
  intlFor,
}: {
  /** The page key's query, without its `?`. */
  search: string;
  locale: string;
  /**
   * A page of that locale seen before, for what all its pages share (header links, feed
   * link); when there is none, the locale's search page without a query is fetched for it
   * (a static host serves that file whatever the query).
   */
  like: PageData | undefined;
  messages: Promise<LocaleMessages | null>;
  source: (locale: string) => Promise<Searcher>;
  build: string;
  locales: readonly LocaleLink[];
  /** The main bundle's (client-intl.ts), passed in so that this chunk shares no module with it. */
  intlFor: (messages: LocaleMessages) => MessageIntl;
}): Promise<PageData> {
  const query = parseSearchQuery(search);
  if (query.kind === 'reject') throw new Error(query.reason);
  const [arrived, results, shared] = await Promise.all([
    messages,
    query.query
      ? source(searchScope(locale, searchVersion(search))).then((searcher) => searcher(query.query, new AbortController().signal))
      : { total: 0, hits: [] },
    like ?? fetch(dataUrl(build, `/${locale}/search`)).then(async (response) => ((await response.json()) as Payload).page),
  ]);
  if (!arrived) throw new Error(`no messages for ${locale}`);
  if (shared?.locale !== locale) throw new Error(`no page of ${locale} to take its header from`);
  const chrome = { nav: shared.nav, links: shared.head.links };
  return searchPageData({ build, intl: intlFor(arrived), chrome, locales, query: query.query, results });
}
