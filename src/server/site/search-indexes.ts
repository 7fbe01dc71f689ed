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
import { scopeLocale, searchScope, scopeVersion } from '../../routes/search/query.ts';
import { type DocsVersion, versionOf } from '../content/versions.ts';

function inScope(pageVersion: DocsVersion | undefined, version: string | null): boolean {
  return version === null ? pageVersion?.latest !== false : pageVersion?.name === version && !pageVersion.latest;
}

/** `locale`: the index's scope (`en`, or `en@0.1` for an older docs version's; see searchScope). */
export type IndexFile = { locale: string; url: string; json: string };

/**
 * The indexes of every locale (or of `locales`), each with its content-hashed asset URL:
 * per locale, one of its pages with the latest docs, and one per older docs version.
 */
export function makeIndexFiles(site: Site, locales: readonly string[] = site.locales): IndexFile[] {
  return locales.flatMap((locale) =>
    searchScopes(site, locale).map((scope) => {
      const json = buildSearchIndex(locale, indexedPages(site, locale, scopeVersion(scope)));
      return { locale: scope, url: indexUrl(scope, json), json };
    }),
  );
}

/** One scope's index (see makeIndexFiles). */
export function makeScopeIndex(site: Site, scope: string): IndexFile {
  const json = buildSearchIndex(scopeLocale(scope), indexedPages(site, scopeLocale(scope), scopeVersion(scope)));
  return { locale: scope, url: indexUrl(scope, json), json };
}

/** A locale's search scopes: its own, then one per docs version other than the latest. */
export function searchScopes(site: Site, locale: string): string[] {
  return [locale, ...site.versions.filter((version) => !version.latest).map((version) => searchScope(locale, version.name))];
}

/**
 * `/assets/search-<locale>-<hash>.json`: a new name whenever the index changes, so it can be
 * cached for good. `json`: the file's text, or its UTF-8 bytes in chunks.
 */
export function indexUrl(locale: string, json: string | readonly Uint8Array[]): string {
  // A scope's `@` (`en@0.1`) is `-v` in the file name (`search-en-v0.1-<hash>.json`): plain in every host's rules.
  return hashedAssetUrl(`search-${locale.replace('@', '-v')}`, json);
}

/** Where the build writes the compact form of the index at `url` (beside the server, never served). */
export function compactIndexPath(distDir: string, url: string): string {
  return join(distDir, 'server', 'search', basename(url).replace(/\.json$/, '.bin'));
}

/**
 * Every page a locale serves, its own or the default locale's (marked, with the language's
 * name in this locale): with `version`, that older docs version's pages only; without, every
 * page but those of older versions.
 */
export function indexedPages(site: Site, locale: string, version: string | null = null): IndexedPage[] {
  // Language names only: an IntlShape without messages (the index is made at build time, apart from the server's).
  const intl = makeIntl({ locale, messages: {}, defaultLocale: locale, defaults: {} }, createIntlCache(), () => {});
  return [...site.pages.get(locale)!.values()]
    .filter((page) => matchRoute(page.key) !== 'search' && !page.unlisted && inScope(versionOf(site.versions, page.key), version))
    .map((page) => ({
      path: pagePath(locale, page.localPath),
      title: page.title,
      ...(page.keywords && { keywords: page.keywords }),
      fallback: page.contentLocale === locale ? null : { lang: page.contentLocale, language: languageName(intl, page.contentLocale) },
      sections: page.sections,
    }));
}
