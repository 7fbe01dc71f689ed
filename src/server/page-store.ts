import { createHash } from 'node:crypto';
import { directionOf } from '../i18n/locales.ts';
import { makeIntl, type CompiledMessages, type Translator } from '../i18n/intl.ts';
import { pagePath } from '../routes/location.ts';
import type { SearchResults } from '../routes/search/engine.ts';
import { SEARCH_SLUG, searchPath } from '../routes/search/query.ts';
import type { Head, LocaleLink, PageData } from '../routes/types.ts';
import type { Site, SourcePage } from './content/site.ts';
import type { MessageCatalog } from './messages.ts';
import { screenMaker } from './screens.ts';

/**
 * Every page of every locale as ready-to-render PageData, built once at start-up.
 * Pages are immutable between deploys, so a request is a Map lookup; only the
 * not-found page (which names the requested path) is made per request.
 */
export type PageStore = {
  find(locale: string, slug: string): PageData | undefined;
  notFound(locale: string, path: string): PageData;
  /** The search page for a query and its results: `noindex` (no canonical), the switcher keeps the query. */
  searchPage(locale: string, query: string, results: SearchResults): PageData;
  intl(locale: string): Translator;
  messages(locale: string): CompiledMessages;
  /** A strong validator for a stored page: changes with the build, the page data and its locale's messages. */
  etag(page: PageData): string | undefined;
  /** Every served page path with the locales that really translate it: the sitemap's source. */
  entries(): Iterable<{ locale: string; slug: string; translated: readonly string[] }>;
};

type Options = { site: Site; messages: MessageCatalog; publicUrl: string; build: string };

export function buildPageStore({ site, messages, publicUrl, build }: Options): PageStore {
  const intls = new Map(site.locales.map((locale) => [locale, makeIntl(locale, messages.get(locale)!)]));
  const autonyms = new Map(site.locales.map((locale) => [locale, capitalise(languageName(locale, locale), locale)]));
  const store = new Map<string, Map<string, PageData>>();

  for (const locale of site.locales) {
    const intl = intls.get(locale)!;
    const pages = site.pages.get(locale)!;
    const screenFor = screenMaker(locale, pages);
    const names = new Intl.DisplayNames([locale], { type: 'language' });
    const byslug = new Map<string, PageData>();
    for (const page of pages.values()) {
      const path = pagePath(locale, page.slug);
      const screen = screenFor(page);
      if (!screen) continue;
      byslug.set(page.slug, {
        build,
        status: 200,
        locale,
        dir: directionOf(locale),
        path,
        head: makeHead(page, intl, site, publicUrl),
        locales: localeLinks(site.locales, page.slug, autonyms),
        fallback:
          page.contentLocale === locale
            ? null
            : {
                contentLocale: page.contentLocale,
                language: names.of(locale) ?? locale,
                original: names.of(page.contentLocale) ?? page.contentLocale,
              },
        screen,
      });
    }
    store.set(locale, byslug);
  }

  const etags = new WeakMap<PageData, string>();
  for (const [locale, pages] of store) {
    const messagesJson = JSON.stringify(messages.get(locale));
    for (const page of pages.values()) {
      etags.set(
        page,
        `"${createHash('sha256').update(build).update(messagesJson).update(JSON.stringify(page)).digest('base64url').slice(0, 27)}"`,
      );
    }
  }

  return {
    find: (locale, slug) => store.get(locale)?.get(slug),
    etag: (page) => etags.get(page),
    notFound(locale, path) {
      const intl = intls.get(locale)!;
      return {
        build,
        status: 404,
        locale,
        dir: directionOf(locale),
        path,
        head: {
          title: `${intl.formatMessage({ id: 'notFound.title' })} · ${intl.formatMessage({ id: 'site.name' })}`,
          description: intl.formatMessage({ id: 'notFound.title' }),
          canonical: null,
          alternates: [],
        },
        // The switcher on a 404 offers each locale's home: the same slug would be a 404 too.
        locales: localeLinks(site.locales, '', autonyms),
        fallback: null,
        screen: { screen: 'not-found', path },
      };
    },
    searchPage(locale, query, { total, hits }) {
      const intl = intls.get(locale)!;
      const title = query ? intl.formatMessage({ id: 'search.titleWithQuery' }, { query }) : intl.formatMessage({ id: 'search.title' });
      return {
        build,
        status: 200,
        locale,
        dir: directionOf(locale),
        path: pagePath(locale, SEARCH_SLUG),
        head: {
          title: `${title} · ${intl.formatMessage({ id: 'site.name' })}`,
          description: intl.formatMessage({ id: 'search.title' }),
          // No canonical: the document says noindex, and the sitemap never lists it.
          canonical: null,
          alternates: [],
        },
        locales: localeLinks(site.locales, SEARCH_SLUG, autonyms).map((link) => ({ ...link, path: searchPath(link.locale, query) })),
        fallback: null,
        screen: { screen: 'search', query, total, hits },
      };
    },
    intl: (locale) => intls.get(locale)!,
    messages: (locale) => messages.get(locale)!,
    *entries() {
      for (const [locale, pages] of store) {
        for (const slug of pages.keys()) yield { locale, slug, translated: site.translations.get(slug) ?? [] };
      }
    },
  };
}

function makeHead(page: SourcePage, intl: Translator, site: Site, publicUrl: string): Head {
  const translated = site.translations.get(page.slug) ?? [];
  const alternates = translated.map((locale) => ({ hreflang: locale, href: publicUrl + pagePath(locale, page.slug) }));
  if (translated.includes(site.defaultLocale)) {
    alternates.push({ hreflang: 'x-default', href: publicUrl + pagePath(site.defaultLocale, page.slug) });
  }
  const siteName = intl.formatMessage({ id: 'site.name' });
  return {
    title: page.slug === '' ? `${siteName} · ${page.title}` : `${page.title} · ${siteName}`,
    description: page.description,
    canonical: publicUrl + pagePath(intl.locale, page.slug),
    alternates,
  };
}

function localeLinks(locales: readonly string[], slug: string, autonyms: Map<string, string>): LocaleLink[] {
  return locales.map((locale) => ({ locale, name: autonyms.get(locale)!, path: pagePath(locale, slug), dir: directionOf(locale) }));
}

function languageName(inLocale: string, locale: string): string {
  return new Intl.DisplayNames([inLocale], { type: 'language' }).of(locale) ?? locale;
}

function capitalise(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
