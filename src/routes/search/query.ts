// The search page's URL, both directions: `/<locale>/search?q=...` read from a raw
// query string (strictly: bad input is refused, never guessed at), and written.
import { pagePath } from '../location.ts';

export const SEARCH_SLUG = 'search';
/** Longest query, in characters after decoding; the box does not let one type more. */
export const MAX_QUERY_LENGTH = 256;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/g;

export type QueryDecision = { kind: 'query'; query: string } | { kind: 'reject'; status: 400; reason: string };

/**
 * `q` from a raw query string (`?q=a+b&x=1`, with or without the `?`), decoded as a
 * form sends it (`+` is a space) and trimmed; other parameters are ignored. A
 * malformed escape, a second `q`, or more than MAX_QUERY_LENGTH characters is a
 * 400: a repeated or cut query would show results for something nobody typed.
 */
export function parseSearchQuery(search: string): QueryDecision {
  let query: string | null = null;
  const raw = search.startsWith('?') ? search.slice(1) : search;
  for (const pair of raw ? raw.split('&') : []) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (name !== 'q') continue;
    if (query !== null) return { kind: 'reject', status: 400, reason: 'Repeated q parameter' };
    const value = equals === -1 ? '' : pair.slice(equals + 1).replace(/\+/g, ' ');
    // A value far over the limit is refused before it is decoded (each character is at most 12 encoded bytes).
    if (value.length > MAX_QUERY_LENGTH * 12) return tooLong();
    try {
      query = decodeURIComponent(value);
    } catch {
      return { kind: 'reject', status: 400, reason: 'Malformed percent-encoding in q' };
    }
  }
  // Control characters have no place in a query (and a NUL would not survive the HTML parser).
  const trimmed = (query ?? '').replace(CONTROL, ' ').trim();
  // Characters as a reader counts them (code points), not UTF-16 units.
  if (trimmed.length > MAX_QUERY_LENGTH && [...trimmed].length > MAX_QUERY_LENGTH) return tooLong();
  return { kind: 'query', query: trimmed };
}

function tooLong(): QueryDecision {
  return { kind: 'reject', status: 400, reason: `Search query longer than ${MAX_QUERY_LENGTH} characters` };
}

/** `/<locale>/search`, with `?q=` when there is a query. */
export function searchPath(locale: string, query: string): string {
  const path = pagePath(locale, SEARCH_SLUG);
  return query ? `${path}?q=${encodeURIComponent(query)}` : path;
}
