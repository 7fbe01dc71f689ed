/** Cache-Control values, decided once from the configuration. */
export type CachePolicy = { page: string; notFound: string; permanentRedirect: string; negotiated: string; never: string };

export function cachePolicy(pageMaxAge: number): CachePolicy {
  // Browsers revalidate every time (a 304 with the ETag is cheap); CDNs keep pages for
  // PAGE_MAX_AGE and may serve a stale copy while they refetch in the background.
  const shared = pageMaxAge > 0 ? `, s-maxage=${pageMaxAge}, stale-while-revalidate=${pageMaxAge}` : '';
  return {
    page: `public, max-age=0${shared}`,
    notFound: `public, max-age=0${pageMaxAge > 0 ? `, s-maxage=${Math.min(60, pageMaxAge)}` : ''}`,
    permanentRedirect: 'public, max-age=3600',
    negotiated: 'private, no-cache',
    never: 'no-store',
  };
}
