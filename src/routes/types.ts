import type { Direction } from '../i18n/locales.ts';

// The vocabulary of the wire: what a loader on the server produces and a screen
// in the browser consumes. Everything is display-ready (dates already formatted,
// language names already resolved) so server and browser render the same text
// whatever their ICU versions and time zones: no hydration mismatch.

/** `lang` is set when the title is in another language than the page (a fallback). */
export type Link = { title: string; path: string; lang?: string | undefined };

/**
 * A docs sidebar entry; `children` is empty for a closed section. `total` is set
 * when `children` are a window of a longer list (so many pages): the entry's own
 * page lists them all.
 */
/** `collapsed`: a section shown with its pages, folded until the reader unfolds it (its `_section.yml`). */
export type NavNode = Link & { children: NavNode[]; total?: number; collapsed?: true };

/** A section's pages as its page lists them: by title, under their initial. */
export type ListingGroup = { label: string; links: Link[] };

/**
 * Where a page of a section's listing is among them, when the listing takes several
 * (`<section>/~/<n>`): the screen's previous and next links lead to the neighbouring pages.
 */
export type ListingPager = { page: number; pages: number };

/** A heading of compiled Markdown: its anchor id, its plain text, its level (2 for `##`). */
export type Heading = { id: string; text: string; level: number };

export type PostSummary = Link & { date: string; isoDate: string; description: string };

/**
 * A screen's data. `Tree` is how a docs page holds its sidebar's tree: as the server makes
 * it (NavNode[], src/server/pages/screen-data.ts), and as a page carries it, HTML
 * (src/server/pages/docs-tree.ts writes it when the page is made).
 */
export type ScreenData<Tree = string> =
  | { kind: 'home'; title: string; html: string; posts: PostSummary[] }
  | {
      kind: 'docs';
      title: string;
      html: string;
      /**
       * The docs tree as the sidebar shows it, as HTML: the server writes it once per page, and a
       * page, the browser and the page data all carry it as it is (React draws no element of it).
       */
      sidebar: Tree;
      /** "On this page": the h2 and h3 headings, when the page has enough sections to need it; else empty. */
      toc: Heading[];
      previous: Link | null;
      next: Link | null;
      /** Every page of a section too long for the sidebar, on the section's own page; absent elsewhere. */
      listing?: ListingGroup[];
      /**
       * Set when the listing goes on over numbered pages: `listing` is this page's part of it,
       * `title` (past page 1) says which page this is, and `previous` and `next` lead to its neighbours.
       */
      listingPager?: ListingPager;
    }
  | { kind: 'blog-index'; title: string; html: string; posts: PostSummary[] }
  | {
      kind: 'blog-post';
      title: string;
      html: string;
      date: string;
      isoDate: string;
      author: string;
      readingMinutes: number;
    }
  | { kind: 'article'; title: string; html: string }
  /** `path`: what the visitor asked for; empty in an exported not-found page, which answers for any path. */
  | { kind: 'not-found'; path: string }
  /** Made per request from the visitor's query (never cached by path); `hits` are the first of `total`. */
  | {
      kind: 'search';
      query: string;
      total: number;
      hits: SearchHit[];
      /**
       * The page `npm run export` writes for a static host, where no server runs the query:
       * the browser runs it (the client replaces this page at start), and without
       * JavaScript the page says that search needs it.
       */
      staticHost?: true;
      /** The older docs version searched (`&v=`); absent for the latest. */
      version?: string;
    };

export type ScreenId = ScreenData['kind'];

/** A header link: its label's message id and the section's path in the page's locale. */
export type NavEntry = { label: string; path: string };

/** One entry of the language switcher: every locale, pointing at this same slug. */
export type LocaleLink = { locale: string; name: string; path: string; dir: Direction };

export type Head = {
  title: string;
  description: string;
  /** Absolute, from PUBLIC_URL; null for a 404 (nothing canonical about it). */
  canonical: string | null;
  /** Only the locales that really have this page, plus x-default. */
  alternates: { hreflang: string; href: string }[];
  /** Further `<link>`s, each as its attributes in order: the locale's Atom feed. */
  links: HeadTag[];
  /** Further `<meta>`s, each as its attributes in order: Open Graph and Twitter card tags. */
  meta: HeadTag[];
  /** Structured data (schema.org JSON-LD) for `<script type="application/ld+json">`, already escaped for HTML; null for none. */
  jsonLd: string | null;
};

/** One head element as its attribute names and values (`{ property: 'og:title', content: '…' }`). */
export type HeadTag = Record<string, string>;

/** Shown when a page is served in the default locale because it has no translation yet. */
export type FallbackNotice = { contentLocale: string; language: string; original: string };

/**
 * Shown on a translation whose default-locale source changed since it was translated: the
 * original's language tag, its name in the page's language, and its path; `changed` and
 * `translated` when both files' dates are known and the original's is the later one.
 */
export type OutdatedNotice = { lang: string; original: string; path: string; changed?: PageDate; translated?: PageDate };

/** One entry of the version switcher: this page in that version, or that version's docs home when it lacks the page. */
export type VersionChoice = { name: string; label: string; path: string };

/**
 * A versioned docs page's version: its label, the switcher's choices (newest first),
 * and for any but the latest release the banner saying so, with this page in the
 * latest release (or the latest docs' home when it is gone there).
 */
export type PageVersion = {
  name: string;
  label: string;
  choices: VersionChoice[];
  banner: { kind: 'old' | 'unmaintained' | 'next'; latest: string; latestPath: string } | null;
};

/** A day as `<time datetime>` takes it (`iso`) and as the page's locale writes it (`text`, formatted on the server). */
export type PageDate = { iso: string; text: string };

/**
 * Where the reader can change the page (EDIT_URL): the file of the text they are reading
 * (a translation's own, or for a fallback the default locale's).
 */
/** Where to edit the file the page shows; on a fallback page, also where its translation's new file would be made. */
export type EditLink = { href: string; translate?: string };

export type PageData = {
  build: string;
  status: 200 | 404;
  locale: string;
  dir: Direction;
  path: string;
  head: Head;
  /** The header's sections (home, docs, blog, about) in this locale: message id and localized path. */
  nav: NavEntry[];
  locales: LocaleLink[];
  fallback: FallbackNotice | null;
  outdated: OutdatedNotice | null;
  /** When the text shown last changed (git, else `updated:` front matter); null when unknown. */
  updated: PageDate | null;
  edit: EditLink | null;
  /** A page marked `draft: true`, which only the development server shows. */
  draft?: true;
  /** A docs page of a site with versions (docs/versions.md). */
  version?: PageVersion;
  screen: ScreenData;
};

/** Text with the words a search matched marked: shown as text, marked parts in <mark>; never HTML. */
export type Marked = { text: string; mark: boolean }[];

/** One page found by search, at the section where the query matched best. */
export type SearchHit = {
  /** The page's path, with `#<heading id>` when the match is under a heading. */
  path: string;
  title: Marked;
  /** The heading of the matched section; null for the text before the first heading. */
  heading: Marked | null;
  snippet: Marked;
  /** Set for a page served from the default locale (untranslated): its language tag and name. */
  fallback: { lang: string; language: string } | null;
};

/**
 * Where the browser finds each locale's search index (a content-hashed asset), or
 * null for a locale whose index is too large to download: the box asks the server.
 */
export type SearchIndexes = Record<string, string | null>;

/** Browser error and performance reporting, present only when SENTRY_DSN is set. */
export type MonitoringInit = { dsn: string; tunnel: string; environment: string; release: string; tracesSampleRate: number };

/**
 * Where the browser finds each locale's UI messages: a content-hashed asset, the same
 * for every page of the locale, so a document names it instead of carrying it.
 */
export type MessageUrls = Record<string, string>;

/** What a document carries for hydration; page data (a navigation's fetch) is `{ page }` alone. */
export type Payload = { page: PageData; messages?: MessageUrls; monitoring?: MonitoringInit; search?: SearchIndexes };
