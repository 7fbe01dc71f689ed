import { dataUrl } from '../routes/page-data.ts';
import type { Payload } from '../routes/types.ts';

/**
 * Fetches page data for a page key (a path; a search page's carries its query). One cache for prefetches and clicks (pages are
 * immutable within a build, so an entry never goes stale), so a prefetched page
 * is never fetched twice.
 */
export type LoadResult =
  | { kind: 'page'; payload: Payload }
  | { kind: 'redirect'; to: string }
  /** Stale build, network error, 5xx or anything unexpected: load the document instead. */
  | { kind: 'reload' };

const MAX_ENTRIES = 64;

export function createPageLoader(build: string, hasMessages: (locale: string) => boolean) {
  const cache = new Map<string, Promise<LoadResult>>();

  function urlFor(path: string): string {
    const locale = path.split('/')[1] ?? '';
    // The locale's messages come along only when the client does not have them yet.
    const url = dataUrl(build, path);
    return hasMessages(locale) ? url : `${url}${url.includes('?') ? '&' : '?'}messages=1`;
  }

  async function fetchData(url: string, signal?: AbortSignal): Promise<LoadResult> {
    let response: Response;
    try {
      response = await fetch(url, { signal, credentials: 'same-origin', headers: { Accept: 'application/json' } });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      return { kind: 'reload' };
    }
    // 409: the server runs another build. 5xx, 4xx other than 404: let the document request deal with it.
    if (response.status !== 200 && response.status !== 404) return { kind: 'reload' };
    try {
      const body = (await response.json()) as Partial<Payload> & { redirect?: string };
      if (typeof body.redirect === 'string') return { kind: 'redirect', to: body.redirect };
      if (body.page && body.page.build === build) return { kind: 'page', payload: body as Payload };
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
    }
    return { kind: 'reload' };
  }

  // Keyed by page path, not URL: once a locale's messages arrived, the same page
  // without `?messages=1` is the same page.
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
      return cache.get(path) ?? remember(path, fetchData(urlFor(path), signal), signal);
    },
    /** Warms the cache; never aborted by navigations, so its result can be reused. */
    prefetch(path: string): void {
      if (!cache.has(path)) remember(path, fetchData(urlFor(path))).catch(() => {});
    },
  };
}
