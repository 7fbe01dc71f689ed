import { createHash } from 'node:crypto';
import { directionOf } from '../i18n/locales.ts';
import { makeIntl, type CompiledMessages, type Translator } from '../i18n/intl.ts';
import { matchRoute } from '../routes/match.ts';
import { pagePath } from '../routes/location.ts';
import type { Head, LocaleLink, NavNode, PageData, PostSummary, ScreenData } from '../routes/types.ts';
import type { Site, SourcePage } from './content/site.ts';
import type { MessageCatalog } from './messages.ts';

/**
 * Every page of every locale as ready-to-render PageData, built once at start-up.
 * Pages are immutable between deploys, so a request is a Map lookup; only the
 * not-found page (which names the requested path) is made per request.
 */
export type PageStore = {
  find(locale: string, slug: string): PageData | undefined;
  notFound(locale: string, path: string): PageData;
  intl(locale: string): Translator;
  messages(locale: string): CompiledMessages;
  /** A strong validator for a stored page: changes with the build, the page data and its locale's messages. */
  etag(page: PageData): string | undefined;
  /** Every served page path with the locales that really translate it: the sitemap's source. */
  entries(): Iterable<{ locale: string; slug: string; translated: readonly string[] }>;
};

type Options = { site: Site; messages: MessageCatalog; publicUrl: string; build: string };

/** Reading speed in characters per minute: about 200 words a minute in alphabetic scripts, ~500 characters in Japanese. */
const CHARS_PER_MINUTE: Record<string, number> = { ja: 500, zh: 500 };
const DEFAULT_CHARS_PER_MINUTE = 1100;

export function buildPageStore({ site, messages, publicUrl, build }: Options): PageStore {
  const intls = new Map(site.locales.map((locale) => [locale, makeIntl(locale, messages.get(locale)!)]));
  const autonyms = new Map(site.locales.map((locale) => [locale, capitalise(languageName(locale, locale), locale)]));
  const store = new Map<string, Map<string, PageData>>();

  for (const locale of site.locales) {
    const intl = intls.get(locale)!;
    const pages = site.pages.get(locale)!;
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    const linkTo = (page: SourcePage) => ({
      title: page.title,
      path: pagePath(locale, page.slug),
      lang: page.contentLocale === locale ? undefined : page.contentLocale,
    });
    const posts: PostSummary[] = [...pages.values()]
      .filter((page) => matchRoute(page.slug) === 'blog-post')
      .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''))
      .map((page) => ({ ...linkTo(page), ...formatDate(page, dates), description: page.description }));
    const docsTree = buildDocsTree(pages, linkTo);
    const docsOrder = flatten(docsTree);

    const byslug = new Map<string, PageData>();
    for (const page of pages.values()) {
      const path = pagePath(locale, page.slug);
      const screen = makeScreen(page, { posts, docsTree, docsOrder, path, dates, locale });
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
                language: languageName(locale, locale),
                original: languageName(locale, page.contentLocale),
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
    intl: (locale) => intls.get(locale)!,
    messages: (locale) => messages.get(locale)!,
    *entries() {
      for (const [locale, pages] of store) {
        for (const slug of pages.keys()) yield { locale, slug, translated: site.translations.get(slug) ?? [] };
      }
    },
  };

  type Context = {
    posts: PostSummary[];
    docsTree: NavNode[];
    docsOrder: NavNode[];
    path: string;
    dates: Intl.DateTimeFormat;
    locale: string;
  };

  function makeScreen(page: SourcePage, context: Context): ScreenData | null {
    const { title, html } = page;
    switch (matchRoute(page.slug)) {
      case 'home':
        return { screen: 'home', title, html, posts: context.posts.slice(0, 3) };
      case 'docs': {
        const index = context.docsOrder.findIndex((node) => node.path === context.path);
        return {
          screen: 'docs',
          title,
          html,
          sidebar: markCurrent(context.docsTree, context.path),
          previous: index > 0 ? toLink(context.docsOrder[index - 1]!) : null,
          next: index >= 0 && index < context.docsOrder.length - 1 ? toLink(context.docsOrder[index + 1]!) : null,
        };
      }
      case 'blog-index':
        return { screen: 'blog-index', title, html, posts: context.posts };
      case 'blog-post': {
        const perMinute = CHARS_PER_MINUTE[page.contentLocale.split('-')[0]!] ?? DEFAULT_CHARS_PER_MINUTE;
        return {
          screen: 'blog-post',
          title,
          html,
          ...formatDate(page, context.dates),
          author: page.author ?? '',
          readingMinutes: Math.max(1, Math.round(page.textLength / perMinute)),
        };
      }
      case 'article':
        return { screen: 'article', title, html };
      default:
        return null;
    }
  }
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

/** The docs sidebar: the docs index first, then its children, nested by folder, ordered by `order`. */
function buildDocsTree(
  pages: ReadonlyMap<string, SourcePage>,
  linkTo: (page: SourcePage) => { title: string; path: string; lang: string | undefined },
): NavNode[] {
  const docs = [...pages.values()].filter((page) => page.slug === 'docs' || page.slug.startsWith('docs/'));
  const childrenOf = (parent: string): NavNode[] =>
    docs
      .filter((page) => page.slug.slice(0, page.slug.lastIndexOf('/')) === parent && page.slug !== parent)
      .sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.title.localeCompare(b.title))
      .map((page) => ({ ...linkTo(page), title: page.nav ?? page.title, current: false, children: childrenOf(page.slug) }));
  const root = pages.get('docs');
  const top = childrenOf('docs');
  return root ? [{ ...linkTo(root), title: root.nav ?? root.title, current: false, children: [] }, ...top] : top;
}

function flatten(nodes: NavNode[]): NavNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

function markCurrent(nodes: NavNode[], path: string): NavNode[] {
  return nodes.map((node) => ({ ...node, current: node.path === path, children: markCurrent(node.children, path) }));
}

function toLink(node: NavNode) {
  return { title: node.title, path: node.path, lang: node.lang };
}

function formatDate(page: SourcePage, dates: Intl.DateTimeFormat) {
  const isoDate = page.date ?? '';
  return { isoDate, date: isoDate ? dates.format(new Date(`${isoDate}T00:00:00Z`)) : '' };
}

function languageName(inLocale: string, locale: string): string {
  return new Intl.DisplayNames([inLocale], { type: 'language' }).of(locale) ?? locale;
}

function capitalise(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
