// Loaded on the search box's first focus (see search.ts), never in the first load.
import { dataUrl, pageKey } from '../routes/page-data.ts';
import type { Searcher } from '../routes/search-box.tsx';
import { loadSearchIndex, searchIndex } from '../routes/search/engine.ts';
import type { Payload } from '../routes/types.ts';

/** Results kept per query, as many as the server's page lists (the box shows the first few). */
const RESULTS = 20;
/** Pause after a keystroke before asking the server: a word typed quickly is one request. */
const SERVER_DELAY_MS = 120;

/** Searches the locale's index in the browser: the same index and the same function as the server. */
export async function indexSearcher(url: string): Promise<Searcher> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`search index: ${response.status}`);
  const index = loadSearchIndex(await response.text());
  return async (query) => searchIndex(index, query, RESULTS);
}

/** Asks the server: the search page's JSON (its page data), for indexes too large to download. */
export function serverSearcher(build: string, locale: string): Searcher {
  return async (query, signal) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, SERVER_DELAY_MS);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    const key = pageKey({ pathname: `/${locale}/search`, search: `?q=${encodeURIComponent(query)}` });
    const response = await fetch(dataUrl(build, key), { signal, credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`search: ${response.status}`);
    const { page } = (await response.json()) as Payload;
    if (page.screen.screen !== 'search') throw new Error('search: not a search page');
    return { total: page.screen.total, hits: page.screen.hits };
  };
}
