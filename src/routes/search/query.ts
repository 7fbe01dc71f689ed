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

/** `/<locale>/search`, with `?q=` when there is a query, and `&v=` for a docs version other than the latest. */
export function searchPath(locale: string, query: string, version: string | null = null): string {
  const path = pagePath(locale, SEARCH_SLUG);
  const scoped = version ? `&${VERSION_PARAM}=${encodeURIComponent(version)}` : '';
  return query ? `${path}?q=${encodeURIComponent(query)}${scoped}` : path;
}

/** The search parameter naming the docs version searched (an older one's: the latest is the default). */
export const VERSION_PARAM = 'v';

const VERSION_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The docs version a search URL asks for (`&v=0.1`), or null: absent, repeated or not a
 * version name (the latest is searched then; a name no version has searches the latest too).
 */
export function searchVersion(search: string): string | null {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  const values = (raw ? raw.split('&') : []).filter((pair) => pair.startsWith(`${VERSION_PARAM}=`));
  if (values.length !== 1) return null;
  const value = values[0]!.slice(VERSION_PARAM.length + 1);
  return VERSION_NAME.test(value) ? value : null;
}

/**
 * What one search index covers: a locale's pages with the latest docs (`en`), or one older
 * docs version's pages in a locale (`en@0.1`). The browser downloads one; the server keeps each.
 */
export function searchScope(locale: string, version: string | null): string {
  return version ? `${locale}@${version}` : locale;
}

/** The locale a search scope is in. */
export function scopeLocale(scope: string): string {
  const at = scope.indexOf('@');
  return at === -1 ? scope : scope.slice(0, at);
}

/** The version of a search scope, or null for the latest. */
export function scopeVersion(scope: string): string | null {
  const at = scope.indexOf('@');
  return at === -1 ? null : scope.slice(at + 1);
}
