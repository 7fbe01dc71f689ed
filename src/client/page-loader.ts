import type { LocaleMessages } from '../i18n/intl.ts';
import { dataUrl } from '../routes/page-data.ts';
import type { MessageUrls, PageData, SearchIndexes } from '../routes/types.ts';
import { noteLocale } from './local-pages.ts';

/**
 * Fetches page data for a page key (a path; a search page's carries its query). One cache for prefetches and clicks (pages are
 * immutable within a build, so an entry never goes stale), so a prefetched page
 * is never fetched twice.
 */
export type LoadResult =
  /** `messages`: the page's locale's, when the client did not have them. */
  | { kind: 'page'; page: PageData; messages?: LocaleMessages }
  | { kind: 'redirect'; to: string }
  /** Stale build, network error, 5xx or anything unexpected: load the document instead. */
  | { kind: 'reload' };

/**
 * Pages the browser makes itself instead of fetching (a search, from the locale's
 * index: see local-pages.ts), given the locale's messages; null for any other key.
 */
export type LocalPages = (key: string, messages: Promise<LocaleMessages | null>) => Promise<PageData> | null;

const MAX_ENTRIES = 64;

export function createPageLoader(
  build: string,
  messageUrls: MessageUrls,
  knownMessages: (locale: string) => LocaleMessages | undefined,
  local: LocalPages,
  /** Where a page's search indexes are, as its data names them (a document names only its own docs version's). */
  learnIndexes: (indexes: SearchIndexes) => void = () => {},
) {
  const cache = new Map<string, Promise<LoadResult>>();

  /** JSON from a same-origin URL (fetch's default credentials mode sends cookies there): null for anything but 200 or 404 with JSON (409: another build; 5xx...). */
  async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T | null> {
    try {
      const response = await fetch(url, { signal });
      if (response.status !== 200 && response.status !== 404) return null;
      return (await response.json()) as T;
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      return null;
    }
  }

  async function fetchPage(path: string, signal?: AbortSignal): Promise<LoadResult> {
    const body = await fetchJson<{ page?: PageData; redirect?: string; search?: SearchIndexes }>(dataUrl(build, path), signal);
    if (typeof body?.redirect === 'string') return { kind: 'redirect', to: body.redirect };
    if (body?.page?.build === build) {
      noteLocale(body.page);
      if (body.search) learnIndexes(body.search);
      return { kind: 'page', page: body.page };
    }
    return { kind: 'reload' };
  }

  // A page in a locale whose messages the client lacks: its data and the messages,
  // two files fetched side by side (a static host serves both; it ignores queries). A locale
  // the document names no messages for is not one this build has: the server will say so.
  async function loadPage(path: string, signal?: AbortSignal): Promise<LoadResult> {
    const locale = path.split('/')[1] ?? '';
    const known = knownMessages(locale);
    const url = messageUrls[locale];
    const messages = known ? Promise.resolve(known) : url ? fetchJson<LocaleMessages>(url, signal) : Promise.resolve(null);
    const made = local(path, messages);
    const [result, arrived] = await Promise.all([
      made
        ? made.then(
            (page): LoadResult => ({ kind: 'page', page }),
            (): LoadResult => ({ kind: 'reload' }),
          )
        : fetchPage(path, signal),
      messages,
    ]);
    if (result.kind !== 'page' || known) return result;
    return arrived ? { ...result, messages: arrived } : { kind: 'reload' };
  }

  // Keyed by page path, not URL: once a locale's messages arrived, the same page
  // without them is the same page.
  function remember(path: string, promise: Promise<LoadResult>, signal?: AbortSignal): Promise<LoadResult> {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(path, promise);
    let settled = false;
    // An abort while the fetch is in flight forgets it at once, not a tick later: a second
    // click on the same link aborts the first one's fetch and must not be handed that dead
    // promise. (Every navigation aborts the previous one's signal; once the data is in,
    // that abort means nothing and the page stays cached for back and forward.)
    signal?.addEventListener('abort', () => !settled && cache.get(path) === promise && cache.delete(path), { once: true });
    // Failures and aborts are not cached: the next attempt asks again.
    promise.then(
      (result) => {
        settled = true;
        if (result.kind === 'reload') cache.delete(path);
      },
      () => cache.delete(path),
    );
    return promise;
  }

  return {
    /** For a click or history move: reuses a prefetch, else fetches with the caller's abort signal. */
    load(path: string, signal: AbortSignal): Promise<LoadResult> {
      return cache.get(path) ?? remember(path, loadPage(path, signal), signal);
    },
    /** Warms the cache; never aborted by navigations, so its result can be reused. */
    prefetch(path: string): void {
      if (!cache.has(path)) remember(path, loadPage(path)).catch(() => {});
    },
  };
}
