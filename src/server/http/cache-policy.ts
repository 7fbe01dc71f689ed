/**
 * Cache-Control values, decided once from the configuration: the server sends
 * them, and the static export writes the same ones into each host's configuration
 * (src/export/hosts/), so both are read from this one table.
 */
export type CachePolicy = {
  /** HTML and page data (and the sitemap, robots.txt and messages): see below. */
  page: string;
  notFound: string;
  /** Content-hashed files under /assets/: a new name whenever the bytes change. */
  asset: string;
  permanentRedirect: string;
  negotiated: string;
  never: string;
};

/** A year, the longest lifetime caches honour. */
export const ASSET_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function cachePolicy(pageMaxAge: number): CachePolicy {
  // Browsers revalidate every time (a 304 with the ETag is cheap); CDNs keep pages for
  // PAGE_MAX_AGE and may serve a stale copy while they refetch in the background.
  const shared = pageMaxAge > 0 ? `, s-maxage=${pageMaxAge}, stale-while-revalidate=${pageMaxAge}` : '';
  return {
    page: `public, max-age=0${shared}`,
    notFound: `public, max-age=0${pageMaxAge > 0 ? `, s-maxage=${Math.min(60, pageMaxAge)}` : ''}`,
    asset: `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`,
    permanentRedirect: 'public, max-age=3600',
    negotiated: 'private, no-cache',
    never: 'no-store',
  };
}
