import type { LocaleIndex } from '../i18n/locales.ts';

// Turns a raw request path into a decision. Pure: no ctx, no I/O.
//
// The path is the raw, still percent-encoded pathname (Koa's `ctx.path`). We
// decode a segment only when it holds a `%` (the common case has none), and a
// malformed escape is a 400, never an exception that escapes as a 500.

/** What to do with a request path: serve a page, redirect to its canonical form, negotiate a locale, or refuse. */
export type LocationDecision =
  | { kind: 'page'; locale: string; slug: string }
  | { kind: 'redirect'; status: 308; location: string }
  /**
   * `rest`: path and query to put after the negotiated `/<locale>`, already safe for a Location header;
   * `slug`: the path decoded (to find the page in the chosen locale); `query`: the query alone, Location-safe.
   */
  | { kind: 'negotiate'; rest: string; slug: string; query: string }
  | { kind: 'reject'; status: 400 | 414; reason: string };

/** Longer paths than any page we serve get a 414 before any work is done. */
export const MAX_PATH_LENGTH = 1024;

// SECURITY: a backslash is a path separator to browsers (`/\evil.com` is protocol-relative
// to them) and to Windows file systems; control characters have no place in a URL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;

export function parseLocation(rawPath: string, search: string, locales: LocaleIndex): LocationDecision {
  if (rawPath.length > MAX_PATH_LENGTH) return { kind: 'reject', status: 414, reason: 'URI too long' };
  if (!rawPath.startsWith('/')) return { kind: 'reject', status: 400, reason: 'Bad path' };

  const segments: string[] = [];
  let hadEmpty = false;
  const raw = rawPath.split('/');
  // raw[0] is the empty string before the leading slash; skip it.
  for (let i = 1; i < raw.length; i++) {
    const segment = raw[i]!;
    if (segment === '') {
      // `/` alone and a trailing slash are empty segments too; both are non-canonical
      // except for the bare root, which has no segments at all.
      if (rawPath !== '/') hadEmpty = true;
      continue;
    }
    const decoded = segment.includes('%') ? tryDecode(segment) : segment;
    if (decoded === null) return { kind: 'reject', status: 400, reason: 'Malformed percent-encoding' };
    if (FORBIDDEN.test(decoded) || decoded.includes('/')) {
      return { kind: 'reject', status: 400, reason: 'Forbidden character in path' };
    }
    // SECURITY: dot segments are never page names; refusing them (plain or encoded)
    // means no later step can be talked into walking up a directory.
    if (decoded === '.' || decoded === '..') return { kind: 'reject', status: 400, reason: 'Dot segment in path' };
    segments.push(segment);
  }

  const first = segments[0];
  const locale = first === undefined ? undefined : locales.get(first.toLowerCase());
  if (locale === undefined) {
    // The whole path (canonicalised) goes after the negotiated locale.
    return {
      kind: 'negotiate',
      rest: urlSafe((segments.length ? `/${segments.join('/')}` : '') + search),
      slug: segments.map(decodeSegment).join('/'),
      query: urlSafe(search),
    };
  }

  const rest = segments.slice(1);
  if (hadEmpty || first !== locale) {
    // SECURITY: the target starts with `/<locale>` built from our own list, so it is
    // always a same-origin path: never `//host` or `/\host`.
    return { kind: 'redirect', status: 308, location: urlSafe(formatPath(locale, rest) + search) };
  }
  return { kind: 'page', locale, slug: rest.map(decodeSegment).join('/') };
}

// What may appear unencoded in a path and query (RFC 3986 pchar, `/`, `?`, and `%`
// of escapes already there). Anything else a client sent raw (`<`, `"`, a space) is
// percent-encoded before it goes into a Location header.
const URL_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;
const URL_UNSAFE_CHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu;

/** A path (with its query) as it may go into a Location header: nothing raw that a client sent. */
export function urlSafe(pathAndQuery: string): string {
  if (URL_SAFE.test(pathAndQuery)) return pathAndQuery;
  return pathAndQuery.replace(URL_UNSAFE_CHAR, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD
    }
  });
}

/** `/<locale>/<segments...>` from already-encoded segments. */
export function formatPath(locale: string, encodedSegments: readonly string[]): string {
  return encodedSegments.length ? `/${locale}/${encodedSegments.join('/')}` : `/${locale}`;
}

/** The path of a page from its locale and (decoded) slug. */
export function pagePath(locale: string, slug: string): string {
  return slug === '' ? `/${locale}` : `/${locale}/${slug.split('/').map(encodeURIComponent).join('/')}`;
}

function decodeSegment(segment: string): string {
  return segment.includes('%') ? (tryDecode(segment) ?? segment) : segment;
}

function tryDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
