import { pagePath } from '../../routes/location.ts';
import { LISTING_SEGMENT, matchRoute } from '../../routes/match.ts';

// Where each page lives in each locale. A page's identity is its file's path
// under `pages/` (its key: `about`, `docs/guides/install`, '' for home), the same
// in every locale; its path in a locale may be localized with front matter
// `slug:` (`ueber-uns`), and a folder's index page localizes the folder, so its
// children follow. Built once from the sources (localizeSlugs, which also finds
// every conflict); looked up per request through the index (sitePaths).

/**
 * A page's identity: its file's path under `pages/`, decoded, without `.md`
 * (`about`, `docs/guides/install`, '' for the home page). The same in every
 * locale, and never a URL: its path in a locale is `SitePaths.pathOf(locale, key)`,
 * and what a visitor typed under the locale is a slug (`ueber-uns`).
 */
export type PageKey = string;

/** A page as the slug resolution needs it: where its file is, and the `slug:` it declares (with that line). */
export type SlugSource = { locale: string; key: string; file: string; slug?: string | undefined; slugLine: number };

/** Per locale: every served key (its own pages and the default locale's fallbacks) -> its decoded path under the locale. */
export type LocalizedSlugs = Map<string, Map<string, string>>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_IN_SLUG = /[\u0000-\u001f\u007f\\]/;

/**
 * Each locale's path of every page it serves, and every problem (with file and
 * line): an invalid `slug:`, two pages on one path, or a localized path that is
 * another page's default path (the redirect from default paths would be ambiguous).
 */
export function localizeSlugs(
  sources: readonly SlugSource[],
  locales: readonly string[],
  defaultLocale: string,
): { slugs: LocalizedSlugs; problems: string[] } {
  const problems: string[] = [];
  const declared = new Map<SlugSource, { whole: boolean; value: string } | null>();
  for (const source of sources) declared.set(source, checkSlug(source, problems));

  const byLocale = new Map(locales.map((locale) => [locale, new Map<string, SlugSource>()]));
  for (const source of sources) byLocale.get(source.locale)?.set(source.key, source);
  const defaults = byLocale.get(defaultLocale)!;

  const slugs: LocalizedSlugs = new Map();
  for (const locale of locales) {
    const own = byLocale.get(locale)!;
    // The file that serves a key here: the translation, else the default locale's page.
    const serving = (key: string) => own.get(key) ?? defaults.get(key);
    const memo = new Map<string, string>([['', '']]);
    const localize = (key: string): string => {
      const known = memo.get(key);
      if (known !== undefined) return known;
      const cut = key.lastIndexOf('/');
      const parent = cut === -1 ? '' : key.slice(0, cut);
      const source = serving(key);
      const slug = source ? declared.get(source) : null;
      const path = slug?.whole ? slug.value : join(localize(parent), slug ? slug.value : key.slice(cut + 1));
      memo.set(key, path);
      return path;
    };
    const served = new Map<string, string>();
    for (const key of new Set([...own.keys(), ...defaults.keys()])) served.set(key, localize(key));
    slugs.set(locale, served);
  }

  const where = (source: SlugSource | undefined) => (source ? `${source.file}:${source.slugLine}` : 'a generated path');
  for (const locale of locales) {
    const own = byLocale.get(locale)!;
    const serving = (key: string) => own.get(key) ?? defaults.get(key);
    const served = slugs.get(locale)!;
    const claimed = new Map<string, string>();
    for (const [key, path] of served) {
      const other = claimed.get(path);
      if (other !== undefined) {
        problems.push(
          `${where(serving(key))}: the path ${pagePath(locale, path)} is claimed by two pages: this one and ${where(serving(other))}`,
        );
      } else claimed.set(path, key);
      if (path !== key && matchRoute(path) === 'search') {
        problems.push(`${where(serving(key))}: the path ${pagePath(locale, path)} is the search page's`);
      }
    }
    if (locale === defaultLocale) continue;
    // `/de/about` (the default path) redirects to `/de/ueber-uns`: no page of this
    // locale may sit on a path that redirects elsewhere.
    const defaultPaths = slugs.get(defaultLocale)!;
    const byDefaultPath = new Map([...served.keys()].map((key) => [defaultPaths.get(key) ?? key, key]));
    for (const [key, path] of served) {
      const owner = byDefaultPath.get(path);
      if (owner !== undefined && owner !== key) {
        problems.push(
          `${where(serving(key))}: the path ${pagePath(locale, path)} is the default path of ${where(serving(owner))}; choose another slug`,
        );
      }
    }
  }
  return { slugs, problems };
}

/**
 * Why no URL can reach the page a file under `pages/` would be, or null when one can:
 * a name that is empty once `.md` is cut (`.md`), a dot segment (`..md` is the path
 * segment `.`, which browsers and servers remove from URLs), a control character or
 * backslash in a name, or the segment `~` (a section's numbered pages are under it).
 */
export function unreachableFile(relativeFile: string): string | null {
  const parts = relativeFile.split(/[\\/]/);
  const name = parts.pop()!.replace(/\.md$/, '');
  for (const segment of [...parts, name]) {
    if (segment === '') return `its name is empty once ".md" is cut: no URL can reach it; rename the file`;
    if (segment === '.' || segment === '..') {
      return `its path holds the segment "${segment}", which browsers and servers remove from URLs: no URL can reach it; rename it`;
    }
    if (UNSAFE_IN_SLUG.test(segment)) return `its path holds a control character or a backslash; rename it`;
    if (segment === LISTING_SEGMENT)
      return `its path holds the segment "${LISTING_SEGMENT}", which names a section's numbered pages (/${LISTING_SEGMENT}/2); rename it`;
  }
  return null;
}

function checkSlug(source: SlugSource, problems: string[]): { whole: boolean; value: string } | null {
  const { slug } = source;
  if (slug === undefined) return null;
  const fail = (why: string) => {
    problems.push(`${source.file}:${source.slugLine}: slug "${printable(slug)}" ${why}`);
    return null;
  };
  if (source.key === '') return fail('is not allowed on a home page: its path is the locale itself');
  const trimmed = slug.trim();
  if (trimmed === '' || trimmed === '/') return fail('is empty');
  const whole = trimmed.startsWith('/');
  // One spelling per path: `ü` typed decomposed (macOS file names and some input methods
  // give NFD) is the same slug as precomposed, and the path is the NFC one, as browsers send it.
  const value = (whole ? trimmed.slice(1) : trimmed).normalize('NFC');
  const segments = value.split('/');
  if (!whole && segments.length > 1) return fail('holds "/" where only one segment is allowed (start it with "/" to give the whole path)');
  for (const segment of segments) {
    if (segment === '') return fail('has an empty segment');
    if (segment === '.' || segment === '..') return fail('holds a "." or ".." segment');
    if (UNSAFE_IN_SLUG.test(segment)) return fail('holds a control character or a backslash');
    if (segment === LISTING_SEGMENT) return fail(`holds the segment "${LISTING_SEGMENT}", which names a section's numbered pages`);
  }
  return { whole, value };
}

function join(parent: string, segment: string): string {
  return parent === '' ? segment : `${parent}/${segment}`;
}

function printable(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Where pages live, for requests: a page's path in a locale, and which page a requested path names. */
export type SitePaths = {
  /** The locale whose paths are every page's default path (and x-default's). */
  defaultLocale: string;
  /** The page's path in the locale, percent-encoded (`/ja/%E6%A6%82%E8%A6%81`). */
  pathOf(locale: string, key: string): string;
  /**
   * The page a decoded path under the locale names: `canonical` when it is the
   * page's path there; otherwise it was the default locale's path (or the page's
   * key) and the page lives elsewhere in this locale (a 308).
   */
  find(locale: string, slug: string): { key: PageKey; canonical: boolean } | undefined;
};

/** `pages`: per locale, every served key with its decoded local path (what SourcePage.localPath holds). */
export function sitePaths(pages: ReadonlyMap<string, ReadonlyMap<string, { localPath: string }>>, defaultLocale: string): SitePaths {
  const localPaths = new Map<string, Map<string, string>>();
  for (const [locale, served] of pages) localPaths.set(locale, new Map([...served].map(([key, page]) => [key, page.localPath])));
  return sitePathsOf(localPaths, defaultLocale);
}

/** `localPaths`: per locale, every served key -> its decoded local path (what SourcePage.localPath holds). */
export function sitePathsOf(localPaths: ReadonlyMap<string, ReadonlyMap<string, string>>, defaultLocale: string): SitePaths {
  const paths = sitePathsBuilder([...localPaths.keys()], defaultLocale);
  for (const [locale, served] of localPaths) {
    const add = paths.adder(locale);
    for (const [key, localPath] of served) add(key, localPath);
  }
  return paths.done();
}

/**
 * SitePaths made a page at a time: the built snapshot's reader adds each page as it reads
 * its line, without a map of every locale's paths made first and dropped.
 */
export function sitePathsBuilder(
  locales: readonly string[],
  defaultLocale: string,
): { adder(locale: string): (key: PageKey, localPath: string) => void; done(): SitePaths } {
  const encoded = new Map(locales.map((locale) => [locale, new Map<string, string>()]));
  const byPath = new Map(locales.map((locale) => [locale, new Map<string, string>()]));
  return {
    adder(locale) {
      const paths = encoded.get(locale)!;
      const keys = byPath.get(locale)!;
      return (key, localPath) => {
        // Most paths need no encoding: made at once, not split, encoded and joined (a versioned site has tens of thousands).
        paths.set(key, localPath !== '' && PLAIN_PATH.test(localPath) ? `/${locale}/${localPath}` : pagePath(locale, localPath));
        keys.set(localPath, key);
      };
    },
    done: () => sitePathsFrom(encoded, byPath, defaultLocale),
  };
}

function sitePathsFrom(
  encoded: ReadonlyMap<string, ReadonlyMap<string, string>>,
  byPath: ReadonlyMap<string, ReadonlyMap<string, string>>,
  defaultLocale: string,
): SitePaths {
  const defaultByPath = byPath.get(defaultLocale)!;
  return {
    defaultLocale,
    pathOf: (locale, key) => encoded.get(locale)?.get(key) ?? pagePath(locale, key),
    find(locale, slug) {
      const found = findAsSpelled(locale, slug);
      if (found || isAscii(slug)) return found;
      // Another Unicode spelling of a path (`u` + U+0308 for `ü`, NFD): the page it names
      // in NFC, to be redirected to its one path.
      const nfc = slug.normalize('NFC');
      const again = nfc === slug ? undefined : findAsSpelled(locale, nfc);
      return again && { key: again.key, canonical: false };
    },
  };

  function findAsSpelled(locale: string, slug: string): { key: PageKey; canonical: boolean } | undefined {
    const here = byPath.get(locale);
    if (!here) return undefined;
    const key = here.get(slug);
    if (key !== undefined) return { key, canonical: true };
    const served = encoded.get(locale)!;
    const other = defaultByPath.get(slug) ?? (served.has(slug) ? slug : undefined);
    return other !== undefined && served.has(other) ? { key: other, canonical: false } : undefined;
  }
}

/** What encodeURIComponent leaves as it is, and `/`: a path of these alone is its own encoding (pagePath). */
const PLAIN_PATH = /^[A-Za-z0-9\-_.!~*'()/]*$/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is the point.
const ASCII = /^[\u0000-\u007f]*$/;

/** Whether a path has one spelling only: ASCII has no other normalization form. */
function isAscii(text: string): boolean {
  return ASCII.test(text);
}
