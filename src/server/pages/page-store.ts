import { createHash } from 'node:crypto';
import { directionOf } from '../../i18n/locales.ts';
import { languageName, type LocaleMessages, localeMessages, type SiteIntl } from '../../i18n/intl.ts';
import { makeServerIntls } from '../site/server-intl.ts';
import { SECTIONS } from '../../routes/layout.tsx';
import { listingPagePath } from '../../routes/match.ts';
import type { SearchResults } from '../../routes/search/engine.ts';
import { searchPageData } from '../../routes/search/page.ts';
import type { EditLink, Head, LocaleLink, NavEntry, PageData, PageDate, PageVersion } from '../../routes/types.ts';
import { baseKey, keyIn, versionOf } from '../content/versions.ts';
import type { Site, SourcePage } from '../content/site.ts';
import type { PageKey } from '../content/paths.ts';
import { BoundedCache } from '../http/bounded-cache.ts';
import { MEMORY_BOUNDS } from '../memory-bounds.ts';
import type { MessageCatalog } from '../content/messages.ts';
import { screenMaker } from './screen-data.ts';
import { treeHtml } from './docs-tree.ts';
import { translationStatus } from '../content/translation-record.ts';
import { makeShareTags, type ShareTagMaker } from '../site/share-tags.ts';
import { twinPath } from '../site/llms.ts';

/**
 * Every page of every locale as ready-to-render PageData. Start-up indexes the
 * pages and builds what they share (each locale's Intl objects, post list and
 * docs tree); a page's PageData is made the first time it is asked for and kept
 * in a cache bounded by its HTML, so a request is a Map lookup while a site of
 * thousands of pages does not hold them all. Only the not-found page (which
 * names the requested path) is made per request.
 */
export type PageStore = {
  /** `listingPage`: a further page of a section's listing (`<section>/~/2`); undefined when it has no such page. */
  find(locale: string, key: PageKey, listingPage?: number): PageData | undefined;
  notFound(locale: string, path: string): PageData;
  /** The search page for a query and its results: `noindex` (no canonical), the switcher keeps the query. */
  searchPage(locale: string, query: string, results: SearchResults, version?: string | null): PageData;
  intl(locale: string): SiteIntl;
  /** A locale's messages with the default locale's fallbacks: what its IntlShape formats, and the browser's asset. */
  messages(locale: string): LocaleMessages;
  /** A strong validator for a stored page: changes with the build, the page data and its locale's messages. */
  etag(page: PageData): string | undefined;
  /**
   * Every served page (translations and default-locale fallbacks) with its path
   * (percent-encoded, as in URLs) and the locales that really translate it: the
   * sitemap's and the export's source.
   */
  entries(): Iterable<{
    locale: string;
    key: PageKey;
    path: string;
    translated: readonly string[];
    lastUpdated: string | undefined;
    /** A page of docs other than the latest release's: not in the sitemap nor in hreflang clusters. */
    archived: boolean;
    unlisted?: true;
  }>;
  /**
   * Every further page of every section's listing (`<section>/~/2` on): the export's,
   * never the sitemap's (they are `noindex`). Page 1 is the section's own, in entries().
   */
  listingPages(): Iterable<{ locale: string; key: PageKey; number: number; path: string }>;
};

type Options = {
  site: Site;
  messages: MessageCatalog;
  /** Each locale's IntlShape (server-intl.ts); by default made here, reporting failures on stderr. */
  intls?: ReadonlyMap<string, SiteIntl>;
  publicUrl: string;
  build: string;
  /** Characters of the PageData (as JSON) kept at most. */
  maxCachedChars?: number;
  /** Open Graph, Twitter, feed and JSON-LD head tags (share-tags.ts); by default without images, feeds or breadcrumbs. */
  share?: ShareTagMaker;
  /** EDIT_URL: where a page's file is edited, `{path}` its path under the content folder; null for no link. */
  editUrl?: string | null;
};

const DEFAULT_MAX_CACHED_CHARS = MEMORY_BOUNDS.pageDataChars;

export function buildPageStore({
  site,
  messages,
  intls = makeServerIntls(messages, site.defaultLocale),
  publicUrl,
  build,
  maxCachedChars = DEFAULT_MAX_CACHED_CHARS,
  share = makeShareTags({ publicUrl, images: {}, links: { pathOf: site.paths.pathOf, feedOf: () => null } }),
  editUrl = null,
}: Options): PageStore {
  const bundles = new Map(site.locales.map((locale) => [locale, localeMessages(locale, messages, site.defaultLocale)]));
  const autonyms = new Map(site.locales.map((locale) => [locale, capitalise(languageName(intls.get(locale)!, locale), locale)]));
  const messageHashes = new Map(site.locales.map((locale) => [locale, sha256(JSON.stringify(bundles.get(locale)))]));
  const switchers = new Map<string, LocaleLink[]>();
  const { paths } = site;
  const navs = new Map(
    site.locales.map((locale): [string, NavEntry[]] => [
      locale,
      SECTIONS.map(({ key, label }) => ({ label, path: paths.pathOf(locale, key) })),
    ]),
  );

  /** What one locale's pages share, made once. */
  const makers = new Map(
    site.locales.map((locale) => {
      const intl = intls.get(locale)!;
      const screenFor = screenMaker(intl, site.pages.get(locale)!, site.versions);
      const nameOf = (code: string) => languageName(intl, code);
      const dateOf = (iso: string | undefined): PageDate | undefined =>
        iso === undefined ? undefined : { iso, text: intl.formatDate(new Date(iso), { dateStyle: 'long', timeZone: 'UTC' }) };
      const make = (page: SourcePage, listingPage = 1): PageData | null => {
        const made = screenFor(page, listingPage);
        if (!made) return null;
        const path = paths.pathOf(locale, page.key);
        // The tree as the page carries it, with the page's own entry marked (a further page of a listing has none).
        const screen =
          made.kind === 'docs'
            ? { ...made, sidebar: treeHtml(made.sidebar, listingPage === 1 ? path : listingPagePath(path, listingPage), intl) }
            : made;
        const data: PageData = {
          build,
          status: 200,
          locale,
          dir: directionOf(locale),
          path,
          head: makeHead(page, intl, site, publicUrl, share),
          nav: navs.get(locale)!,
          locales: switcherFor(page.key),
          fallback:
            page.contentLocale === locale
              ? null
              : {
                  contentLocale: page.contentLocale,
                  language: nameOf(locale),
                  original: nameOf(page.contentLocale),
                },
          outdated: outdatedNotice(page),
          updated: dateOf(page.lastUpdated) ?? null,
          // A frozen version's text is not edited: its release is out.
          edit: editUrl === null || page.generated || versionOf(site.versions, page.key)?.dir ? null : editLink(editUrl, page, locale),
          ...(page.draft && { draft: true as const }),
          ...versionPart(page.key),
          screen,
        };
        return listingPage === 1 ? data : numbered(data, page, listingPage);
      };
      /**
       * A further page of a section's listing: its own path and canonical, `noindex` (the section's
       * page is what search engines should show), titled with its number, switching language to
       * the same page; no share tags, structured data or Markdown twin, which are the section's.
       */
      const numbered = (data: PageData, page: SourcePage, number: number): PageData => {
        const path = listingPagePath(data.path, number);
        // The screen's title says which page this is ("Big, page 2 of 3").
        const title = 'title' in data.screen ? data.screen.title : page.title;
        return {
          ...data,
          path,
          head: {
            title: `${title} · ${intl.formatMessage({ id: 'site.name' })}`,
            description: data.head.description,
            canonical: publicUrl + path,
            alternates: [],
            ...share.plain(locale),
            meta: [{ name: 'robots', content: 'noindex' }],
          },
          locales: data.locales.map((link) => ({ ...link, path: listingPagePath(link.path, number) })),
          outdated: null,
        };
      };
      const served = site.pages.get(locale)!;
      /** The version switcher and banner of a versioned docs page (docs/versions.md). */
      const versionPart = (key: PageKey): { version?: PageVersion } => {
        const version = versionOf(site.versions, key);
        if (!version) return {};
        const base = baseKey(version, key);
        const pathIn = (mount: PageKey) => {
          const there = mount + base.slice('docs'.length);
          return paths.pathOf(locale, served.has(there) ? there : mount);
        };
        const latest = site.versions.find((other) => other.latest)!;
        return {
          version: {
            name: version.name,
            label: version.label,
            choices: site.versions.map((other) => ({ name: other.name, label: other.label, path: pathIn(keyIn(other, 'docs')) })),
            banner: version.latest
              ? null
              : {
                  kind: version.next ? 'next' : version.unmaintained ? 'unmaintained' : 'old',
                  latest: latest.label,
                  latestPath: pathIn(latest.mount),
                },
          },
        };
      };
      const defaultPages = site.pages.get(site.defaultLocale)!;
      const outdatedNotice = (page: SourcePage): PageData['outdated'] => {
        const source = defaultPages.get(page.key);
        if (locale === site.defaultLocale || page.contentLocale !== locale || !source) return null;
        if (translationStatus(true, page.recorded, source.fingerprint) !== 'outdated') return null;
        const notice = { lang: site.defaultLocale, original: nameOf(site.defaultLocale), path: paths.pathOf(site.defaultLocale, page.key) };
        // "Changed on …; this translation is from …" only when it is so: a date either lacks, or an original
        // older than its translation (a record gone stale another way), says nothing a reader can use.
        const { lastUpdated: changed } = source;
        const { lastUpdated: translated } = page;
        if (changed === undefined || translated === undefined || !(Date.parse(changed) > Date.parse(translated))) return notice;
        return { ...notice, changed: dateOf(changed)!, translated: dateOf(translated)! };
      };
      return [locale, { make, listingPages: screenFor.listingPages }];
    }),
  );

  /** The switcher is the same for a page in every locale: one array, shared. */
  function switcherFor(key: PageKey): LocaleLink[] {
    let links = switchers.get(key);
    if (!links) {
      links = localeLinks(site, key, autonyms);
      switchers.set(key, links);
    }
    return links;
  }

  // Counted by the page's whole JSON, not its HTML alone: a section page's listing or a long
  // docs tree is page data too, and made for every request once it falls out.
  const sizes = new WeakMap<PageData, number>();
  const made = new BoundedCache<PageData>(maxCachedChars, (page) => sizes.get(page) ?? 0);
  const etags = new WeakMap<PageData, string>();

  return {
    find(locale, key, listingPage = 1) {
      // A listing's further pages are kept beside its section's, by number (`~` is no content path's segment).
      const cacheKey = listingPage === 1 ? `${locale}/${key}` : `${locale}/${key}/~/${listingPage}`;
      const cached = made.get(cacheKey);
      if (cached) return cached;
      const source = site.pages.get(locale)?.get(key);
      const maker = makers.get(locale);
      // A number past the listing's last page (or of a page that lists nothing) makes nothing: one lookup, not a page.
      if (!source || !maker || (listingPage !== 1 && listingPage > maker.listingPages(source))) return undefined;
      const page = maker.make(source, listingPage);
      if (!page) return undefined;
      const json = JSON.stringify(page);
      sizes.set(page, json.length);
      etags.set(page, `"${sha256(`${build}\0${messageHashes.get(locale)}\0${json}`).slice(0, 27)}"`);
      made.set(cacheKey, page);
      return page;
    },
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
          ...share.plain(locale),
        },
        nav: navs.get(locale)!,
        // The switcher on a 404 offers each locale's home: the same slug would be a 404 too.
        locales: switcherFor(''),
        fallback: null,
        outdated: null,
        updated: null,
        edit: null,
        screen: { kind: 'not-found', path },
      };
    },
    searchPage(locale, query, results, version = null) {
      const chrome = { nav: navs.get(locale)!, links: share.plain(locale).links };
      return searchPageData({ build, intl: intls.get(locale)!, chrome, locales: switcherFor(''), query, results, version });
    },
    intl: (locale) => intls.get(locale)!,
    messages: (locale) => bundles.get(locale)!,
    *entries() {
      for (const [locale, pages] of site.pages) {
        // The page itself is read only when asked about (the built snapshot parses a page on
        // its first use): the sitemap leaves older versions' pages out without reading them.
        for (const key of pages.keys())
          yield {
            locale,
            key,
            path: paths.pathOf(locale, key),
            translated: site.translations.get(key) ?? [],
            archived: versionOf(site.versions, key)?.latest === false,
            get lastUpdated() {
              return pages.get(key)!.lastUpdated;
            },
            get unlisted() {
              return pages.get(key)!.unlisted ? (true as const) : undefined;
            },
          };
      }
    },
    *listingPages() {
      for (const [locale, pages] of site.pages) {
        const { listingPages } = makers.get(locale)!;
        for (const [key, page] of pages) {
          const count = listingPages(page);
          for (let number = 2; number <= count; number++) {
            yield { locale, key, number, path: listingPagePath(paths.pathOf(locale, key), number) };
          }
        }
      }
    },
  };
}

/**
 * "Edit this page" for the file the page shows; on a fallback page, with "Translate this page"
 * to where the locale's file would go (its same path under the locale's folder). An edit URL
 * of a file that does not exist is a 404, so that one is the forge's "new file" form, made from
 * EDIT_URL when it is GitHub's (`…/edit/<branch>/…` -> `…/new/<branch>/<folder>?filename=<name>`)
 * or GitLab's (`…/-/edit/…` -> `…/-/new/…?file_name=`); for any other, there is none.
 */
function editLink(editUrl: string, page: SourcePage, locale: string): EditLink {
  const href = editUrl.replaceAll('{path}', encodeURI(page.sourcePath));
  if (page.contentLocale === locale) return { href };
  const translation = `${locale}${page.sourcePath.slice(page.contentLocale.length)}`;
  const translate = newFileUrl(editUrl.replaceAll('{path}', encodeURI(translation)));
  return translate ? { href, translate } : { href };
}

function newFileUrl(editHref: string): string | undefined {
  const url = new URL(editHref);
  const match = /^(.*?\/)(-\/)?edit\/([^/]+)\/(?:(.*)\/)?([^/]+)$/.exec(url.pathname);
  if (!match) return undefined;
  const [, repository, gitlab, branch, folder, name] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
    string,
  ];
  url.pathname = `${repository}${gitlab ?? ''}new/${branch}/${folder ?? ''}`;
  url.search = `?${gitlab ? 'file_name' : 'filename'}=${name}`;
  return url.href;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * Canonical and alternates name only real pages: a fallback (the default locale's
 * text served in another locale) is a copy, so its canonical is the original, and
 * no alternate ever points at one.
 */
function makeHead(page: SourcePage, intl: SiteIntl, site: Site, publicUrl: string, share: ShareTagMaker): Head {
  const { paths } = site;
  const version = versionOf(site.versions, page.key);
  // Only the latest release's pages form hreflang clusters: an older version's page is its own canonical, alone.
  const translated = version?.latest === false ? [] : (site.translations.get(page.key) ?? []);
  const alternates = translated.map((locale) => ({ hreflang: locale, href: publicUrl + paths.pathOf(locale, page.key) }));
  if (translated.includes(site.defaultLocale)) {
    alternates.push({ hreflang: 'x-default', href: publicUrl + paths.pathOf(site.defaultLocale, page.key) });
  }
  const siteName = intl.formatMessage({ id: 'site.name' });
  const head = {
    title: page.key === '' ? `${siteName} · ${page.title}` : `${page.title} · ${siteName}`,
    description: page.description,
    canonical: publicUrl + paths.pathOf(page.contentLocale, page.key),
    alternates,
  };
  const shared = share.page(page, intl, head, site.pages.get(intl.locale)!);
  // The page as Markdown, for tools and language models (site/llms.ts).
  const twin = { rel: 'alternate', type: 'text/markdown', href: twinPath(paths.pathOf(intl.locale, page.key), intl.locale) };
  // Unlisted: reachable by its link, kept out of search engines as out of every list (a sitemap leaves a page out, it does not keep it out).
  // An older docs version's page set `noindex` (versions.json) likewise.
  const meta = page.unlisted || version?.noindex ? [{ name: 'robots', content: 'noindex' }, ...shared.meta] : shared.meta;
  return { ...head, ...shared, meta, links: [...shared.links, twin] };
}

function localeLinks(site: Site, key: PageKey, autonyms: Map<string, string>): LocaleLink[] {
  return site.locales.map((locale) => ({
    locale,
    name: autonyms.get(locale)!,
    path: site.paths.pathOf(locale, key),
    dir: directionOf(locale),
  }));
}

function capitalise(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
