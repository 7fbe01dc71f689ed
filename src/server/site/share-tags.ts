import type { SiteIntl } from '../../i18n/intl.ts';
import { ATOM_TYPE } from '../../routes/feed.ts';
import { matchRoute } from '../../routes/match.ts';
import type { Head, HeadTag } from '../../routes/types.ts';
import type { SourcePage } from '../content/site.ts';
import { type ShareImages, shareImageOf } from './share-image.ts';
import { structuredData } from './structured-data.ts';

// What a link to a page looks like when it is shared, and what search engines
// and feed readers find in its head: Open Graph and Twitter card tags, the
// locale's feed, structured data. `shareTags` is pure; `makeShareTags` gathers
// its input from the site (images, paths, feeds) for the page store.

/** The part of the head made here. */
export type ShareHead = Pick<Head, 'links' | 'meta' | 'jsonLd'>;

/** A locale's feed, as its pages advertise it. */
export type FeedLink = { title: string; href: string };

export type ShareInput = {
  /** The page's screen (src/routes/table.ts): `blog-post` is an article, `home` a website. */
  kind: string | null;
  /** The language the title and description are in (a fallback's is the default locale's). */
  language: string;
  siteName: string;
  title: string;
  description: string;
  canonical: string | null;
  /** The page's hreflang alternates: the locales that really have it (x-default is left out here). */
  alternates: readonly { hreflang: string; href: string }[];
  date?: string | undefined;
  updated?: string | undefined;
  author?: string | undefined;
  image: { url: string; width: number; height: number; alt: string } | null;
  feed: FeedLink | null;
  breadcrumbs: readonly { name: string; url: string }[];
};

/** The head tags of a page, in the order the document writes them. */
export function shareTags(input: ShareInput): ShareHead {
  const ogLocale = openGraphLocale(input.language);
  const meta: HeadTag[] = [];
  const og = (property: string, content: string) => meta.push({ property, content });
  og('og:type', input.kind === 'blog-post' ? 'article' : 'website');
  og('og:title', input.title);
  og('og:description', input.description);
  if (input.canonical) og('og:url', input.canonical);
  og('og:site_name', input.siteName);
  og('og:locale', ogLocale);
  const alternates = new Set(
    input.alternates.filter(({ hreflang }) => hreflang !== 'x-default').map(({ hreflang }) => openGraphLocale(hreflang)),
  );
  alternates.delete(ogLocale);
  for (const alternate of alternates) og('og:locale:alternate', alternate);
  if (input.image) {
    og('og:image', input.image.url);
    og('og:image:width', String(input.image.width));
    og('og:image:height', String(input.image.height));
    og('og:image:alt', input.image.alt);
  }
  if (input.kind === 'blog-post' && input.date) {
    og('article:published_time', input.date);
    og('article:modified_time', input.updated ?? input.date);
  }
  // X reads og:title, og:description and og:image itself; only the card's kind is its own.
  meta.push({ name: 'twitter:card', content: input.image ? 'summary_large_image' : 'summary' });
  if (input.image) meta.push({ name: 'twitter:image:alt', content: input.image.alt });

  return {
    links: feedLinks(input.feed),
    meta,
    jsonLd: input.canonical
      ? structuredData({ ...input, url: input.canonical, image: input.image?.url, breadcrumbs: input.breadcrumbs })
      : null,
  };
}

/** A page made per request (not found, search results): nothing to share, but the locale's feed. */
export function plainShareHead(feed: FeedLink | null): ShareHead {
  return { links: feedLinks(feed), meta: [], jsonLd: null };
}

function feedLinks(feed: FeedLink | null): HeadTag[] {
  return feed ? [{ rel: 'alternate', type: ATOM_TYPE, title: feed.title, href: feed.href }] : [];
}

/**
 * Open Graph wants `ll_CC` from Facebook's list of locales. Most languages are
 * their likeliest region (`de` -> `de_DE`, `ja` -> `ja_JP`, `en` -> `en_US`, the
 * Open Graph default); a tag with a region keeps it (`pt-BR` -> `pt_BR`). Arabic
 * is the exception: Facebook lists no country form of it, only its own umbrella
 * locale `ar_AR` (its debugger rejects `ar_SA` or `ar_EG` as not in the enum).
 */
export function openGraphLocale(tag: string): string {
  // Asked for every page and each of its alternates; ICU's likely-subtags lookup is the cost.
  // The tags are the site's locales (configuration, not requests): the memo stays that small.
  let known = openGraphLocales.get(tag);
  if (known === undefined) {
    known = openGraphLocaleOf(tag);
    if (openGraphLocales.size < OPEN_GRAPH_MEMO_ENTRIES) openGraphLocales.set(tag, known);
  }
  return known;
}

const OPEN_GRAPH_MEMO_ENTRIES = 256;
const openGraphLocales = new Map<string, string>();

function openGraphLocaleOf(tag: string): string {
  const exception = OPEN_GRAPH_EXCEPTIONS[tag.toLowerCase()];
  if (exception) return exception;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag).maximize();
  } catch {
    return tag.replace('-', '_');
  }
  return locale.region ? `${locale.language}_${locale.region}` : locale.language;
}

const OPEN_GRAPH_EXCEPTIONS: Record<string, string> = { ar: 'ar_AR' };

/** What the share tags need from outside a page: where pages and feeds are. */
export type SiteLinks = {
  /** A page's path in a locale (percent-encoded, as the store serves it). */
  pathOf(locale: string, slug: string): string;
  /** The locale's feed, when it has a blog. */
  feedOf(locale: string): FeedLink | null;
};

/** `defaultLocale`: whose `share.png` a locale without its own shares. */
export type ShareContext = { publicUrl: string; images: ShareImages; links: SiteLinks; defaultLocale?: string };

/** What the page store calls: a content page's tags, and those of a page made per request. */
export type ShareTagMaker = {
  page(page: SourcePage, intl: SiteIntl, head: Pick<Head, 'canonical' | 'alternates'>, pages: ReadonlyMap<string, SourcePage>): ShareHead;
  plain(locale: string): ShareHead;
};

export function makeShareTags({ publicUrl, images, links, defaultLocale }: ShareContext): ShareTagMaker {
  return {
    page(page, intl, head, pages) {
      const locale = intl.locale;
      const siteName = intl.formatMessage({ id: 'site.name' });
      const image = shareImageOf(page, locale, images, defaultLocale);
      const kind = matchRoute(page.key);
      return shareTags({
        kind,
        language: page.contentLocale,
        siteName,
        title: page.title,
        description: page.description,
        canonical: head.canonical,
        alternates: head.alternates,
        date: page.date,
        updated: page.lastUpdated,
        author: page.author,
        image: image && {
          url: publicUrl + image.path,
          width: image.width,
          height: image.height,
          alt:
            page.image === undefined
              ? intl.formatMessage({ id: 'share.imageAlt' }, { site: siteName, tagline: intl.formatMessage({ id: 'site.tagline' }) })
              : intl.formatMessage({ id: 'share.pageImageAlt' }, { title: page.title }),
        },
        feed: links.feedOf(locale),
        // A page served from the default locale (untranslated) is a copy whose canonical is
        // the original: no trail through this locale's pages for it.
        breadcrumbs: kind === 'docs' && page.contentLocale === locale ? breadcrumbs(page.key, locale, pages, links, publicUrl) : [],
      });
    },
    plain: (locale) => plainShareHead(links.feedOf(locale)),
  };
}

/**
 * A docs page's trail: the docs index, each folder above the page that has an
 * index page, and the page, with their titles in this locale and their URLs.
 * A page the locale does not serve breaks no trail: it is left out.
 */
export function breadcrumbs(
  slug: string,
  locale: string,
  pages: ReadonlyMap<string, SourcePage>,
  links: Pick<SiteLinks, 'pathOf'>,
  publicUrl: string,
): { name: string; url: string }[] {
  const segments = slug.split('/');
  const trail: { name: string; url: string }[] = [];
  for (let end = 1; end <= segments.length; end++) {
    const at = segments.slice(0, end).join('/');
    const page = pages.get(at);
    if (page) trail.push({ name: page.title, url: publicUrl + links.pathOf(locale, at) });
  }
  return trail;
}
