// What every host's configuration is made from: the server's own tables (security
// headers, cache policy, locales, the monitoring path), never a copy of them, so the
// files `npm run export` writes send what the server sends. A unit test holds them
// to it (test/export/hosts.test.ts).
import { cachePolicy, type CachePolicy } from '../../server/http/cache-policy.ts';
import type { Config } from '../../server/config.ts';
import { alwaysHeaders, HTTPS_ONLY_HEADER, styleHashSource } from '../../server/http/security-headers.ts';

export type HostTables = {
  /** Default locale first, as in the configuration. */
  locales: readonly string[];
  defaultLocale: string;
  /** Headers for every response: the server's, with HSTS when PUBLIC_URL is https (the server sends it over https only). */
  headers: readonly (readonly [string, string])[];
  /** The server's headers for every response, HSTS aside. */
  always: readonly (readonly [string, string])[];
  /** HSTS: for a host that knows the scheme of each request (nginx), over https only, as the server. */
  hsts: readonly [string, string];
  /** The build id: the page data's folder (`/_data/<build>/`). */
  build: string;
  /** Every page's path (percent-encoded, canonical), search pages included. */
  pages: readonly string[];
  policy: CachePolicy;
  monitoring: {
    path: string;
    maxBytes: number;
    /** Origin of a `SERVE=relay` process to proxy MONITORING_PATH to (`--relay`); null: no proxy rule. */
    relay: string | null;
  };
  /** Each locale's Atom feed (percent-encoded paths): served as `application/atom+xml`, as the server does, not as XML. */
  feeds: readonly string[];
  /**
   * The default locale's path of a page in a locale that localized it, and the page's
   * path there (`/de/about` -> `/de/ueber-uns`; both percent-encoded): the server's 308s.
   */
  moved: readonly { from: string; to: string }[];
};

export function hostTables(
  config: Config,
  {
    relay,
    build = 'build',
    pages = [],
    feeds = [],
    moved = [],
    criticalCss = null,
  }: {
    relay: string | null;
    /** The pages' inlined critical CSS (the manifest's): the CSP allows it by its hash, as the server's does. */
    criticalCss?: string | null;
    build?: string;
    pages?: readonly string[];
    feeds?: readonly string[];
    moved?: readonly { from: string; to: string }[];
  },
): HostTables {
  const https = new URL(config.publicUrl).protocol === 'https:';
  const always = alwaysHeaders(criticalCss === null ? [] : [styleHashSource(criticalCss)]);
  return {
    locales: config.locales,
    defaultLocale: config.defaultLocale,
    headers: https ? [...always, HTTPS_ONLY_HEADER] : always,
    always,
    hsts: HTTPS_ONLY_HEADER,
    build,
    pages,
    policy: cachePolicy(config.pageMaxAge),
    monitoring: { path: config.monitoring.path, maxBytes: config.monitoring.maxBytes, relay },
    feeds,
    moved,
  };
}

/**
 * Which Cache-Control each kind of path gets, in the order a host should match them.
 * `exact`: that path only; `prefix`: the path and everything under it.
 */
export function cacheRules(tables: HostTables): { path: string; match: 'exact' | 'prefix'; cacheControl: string }[] {
  const { policy } = tables;
  return [
    { path: '/assets', match: 'prefix', cacheControl: policy.asset },
    { path: '/_data', match: 'prefix', cacheControl: policy.page },
    { path: '/sitemap.xml', match: 'exact', cacheControl: policy.page },
    { path: '/robots.txt', match: 'exact', cacheControl: policy.page },
    { path: '/llms.txt', match: 'exact', cacheControl: policy.page },
    { path: '/404.html', match: 'exact', cacheControl: policy.notFound },
    ...tables.locales.map((locale) => ({ path: `/${locale}`, match: 'prefix' as const, cacheControl: policy.page })),
  ];
}

/** A percent-encoded path with its letters decomposed (NFD, as macOS may spell the NFC path), or null when NFD spells it alike. */
export function encodedNfd(path: string): string | null {
  let decoded: string[];
  try {
    decoded = path.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  const nfd = decoded.map((segment) => segment.normalize('NFD'));
  return nfd.every((segment, at) => segment === decoded[at]) ? null : nfd.map(encodeURIComponent).join('/');
}
