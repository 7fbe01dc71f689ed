import { ROUTES, type RouteId } from './table.ts';

/**
 * Compiled once at import: static patterns go into a Map (one lookup), the rest
 * are checked in table order against their literal segments as one prefix (each
 * followed by `/`), no RegExp and no split: start-up matches every page's key.
 */
type Dynamic = { id: RouteId; prefix: string; tail: 'one' | 'rest' };

const staticRoutes = new Map<string, RouteId>();
const dynamicRoutes: Dynamic[] = [];

for (const { id, pattern } of ROUTES) {
  const parts = pattern === '' ? [] : pattern.split('/');
  const last = parts.at(-1);
  if (last === '*' || last?.startsWith(':')) {
    dynamicRoutes.push({
      id,
      prefix: parts
        .slice(0, -1)
        .map((part) => `${part}/`)
        .join(''),
      tail: last === '*' ? 'rest' : 'one',
    });
  } else if (!staticRoutes.has(pattern)) {
    staticRoutes.set(pattern, id);
  }
}

/** The screen for a slug (decoded, '/'-separated, no leading slash), or null. */
export function matchRoute(slug: string): RouteId | null {
  const exact = staticRoutes.get(slug);
  if (exact) return exact;
  for (const { id, prefix, tail } of dynamicRoutes) {
    // One segment or more after the literal ones ('' is no segment at all); `one`: exactly one.
    if (slug === '' || !slug.startsWith(prefix)) continue;
    if (tail === 'one' && slug.indexOf('/', prefix.length) !== -1) continue;
    return id;
  }
  return null;
}

/**
 * The segment under which a section's own page goes on, numbered (`docs/tools/~/2`):
 * reserved, so no content path may hold it (content/paths.ts refuses a file or a
 * `slug:` that would), and one segment that percent-encodes to itself.
 */
export const LISTING_SEGMENT = '~';

/** The highest page number a listing path may name: six plain digits. */
export const MAX_LISTING_PAGE = 999_999;

/**
 * A slug naming a numbered page of a section's listing (`<section>/~/<n>`): the
 * section's slug, and the number when it is one in plain digits without a leading
 * zero (`1`..`999999`), else null (a 404). Null for any other slug.
 */
export function matchListingPage(slug: string): { section: string; number: number | null } | null {
  const cut = slug.lastIndexOf(`/${LISTING_SEGMENT}/`);
  if (cut <= 0) return null;
  const digits = slug.slice(cut + LISTING_SEGMENT.length + 2);
  const number = PAGE_NUMBER.test(digits) ? Number(digits) : null;
  return { section: slug.slice(0, cut), number };
}

const PAGE_NUMBER = /^[1-9][0-9]{0,5}$/;

/** The path of a listing's page from its section's path: page 1 is the section's own. */
export function listingPagePath(sectionPath: string, number: number): string {
  return number === 1 ? sectionPath : `${sectionPath}/${LISTING_SEGMENT}/${number}`;
}
