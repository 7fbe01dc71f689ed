// Each locale's search index, made from the compiled content: by `npm run build`
// (written as content-hashed assets, listed in the manifest) and by the server when
// the content changed since the build (development). Both make the same bytes from
// the same content.
import { basename, join } from 'node:path';
import { matchRoute } from '../../routes/match.ts';
import { pagePath } from '../../routes/location.ts';
import type { IndexedPage } from '../../routes/search/engine.ts';
import { buildSearchIndex } from '../../routes/search/index-writer.ts';
import type { Site } from '../content/site.ts';
import { hashedAssetUrl } from './hashed-asset.ts';
import { createIntlCache, languageName, makeIntl } from '../../i18n/intl.ts';

export type IndexFile = { locale: string; url: string; json: string };

/** The index of every locale (or of `locales`), each with its content-hashed asset URL. */
export function makeIndexFiles(site: Site, locales: readonly string[] = site.locales): IndexFile[] {
  return locales.map((locale) => {
    const json = buildSearchIndex(locale, indexedPages(site, locale));
    return { locale, url: indexUrl(locale, json), json };
  });
}

/** `/assets/search-<locale>-<hash>.json`: a new name whenever the index changes, so it can be cached for good. */
export function indexUrl(locale: string, json: string): string {
  return hashedAssetUrl(`search-${locale}`, json);
}

/** Where the build writes the compact form of the index at `url` (beside the server, never served). */
export function compactIndexPath(distDir: string, url: string): string {
  return join(distDir, 'server', 'search', basename(url).replace(/\.json$/, '.bin'));
}

/** Every page a locale serves, its own or the default locale's (marked, with the language's name in this locale). */
export function indexedPages(site: Site, locale: string): IndexedPage[] {
  // Language names only: an IntlShape without messages (the index is made at build time, apart from the server's).
  const intl = makeIntl({ locale, messages: {}, defaultLocale: locale, defaults: {} }, createIntlCache(), () => {});
  return [...site.pages.get(locale)!.values()]
    .filter((page) => matchRoute(page.key) !== 'search' && !page.unlisted)
    .map((page) => ({
      path: pagePath(locale, page.localPath),
      title: page.title,
      fallback: page.contentLocale === locale ? null : { lang: page.contentLocale, language: languageName(intl, page.contentLocale) },
      sections: page.sections,
    }));
}
