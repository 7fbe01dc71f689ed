// Each screen's data, made once at start-up from a locale's compiled pages.
// To add a screen: a row in src/routes/table.ts, a variant of ScreenData in
// src/routes/types.ts, a case in src/routes/app.tsx, and a case in `screenFor` here.
import { listingPagePath, matchRoute } from '../../routes/match.ts';
import { pagePath } from '../../routes/location.ts';
import type { Heading, Link, ListingGroup, ListingPager, NavNode, PostSummary, ScreenData } from '../../routes/types.ts';
import type { SourcePage } from '../content/site.ts';
import { peekPage } from '../content/snapshot.ts';
import type { SiteIntl } from '../../i18n/intl.ts';
import { type SiteVersions, versionOf } from '../content/versions.ts';

/** Reading speed in characters per minute: about 200 words a minute in alphabetic scripts, ~500 characters in Japanese. */
const CHARS_PER_MINUTE: Record<string, number> = { ja: 500, zh: 500 };
const DEFAULT_CHARS_PER_MINUTE = 1100;
/** Posts the home page previews. */
const HOME_POSTS = 3;
/** A docs page gets "On this page" from this many sections (h2) up: a shorter page is seen at a glance. */
const TOC_MIN_SECTIONS = 3;

/** A screen as made here: a docs page's tree is nodes, which the page store writes as HTML (docs-tree.ts). */
export type TreeScreen = ScreenData<NavNode[]>;

/**
 * A page's screen; `listingPage`: for a section's own page, which page of its listing
 * (1, the default, is the section's URL). Null when the page has no screen, or the
 * listing has no such page.
 */
export type ScreenMaker = ((page: SourcePage, listingPage?: number) => TreeScreen | null) & {
  /** How many pages a section's listing takes (1 for a short one, 0 for a page that lists nothing). */
  listingPages(page: SourcePage): number;
};

/**
 * What every screen of one locale shares (the post list, the docs tree and its
 * reading order) is built here once; the returned function makes one page's screen.
 */
export function screenMaker(intl: SiteIntl, pages: ReadonlyMap<string, SourcePage>, versions: SiteVersions = []): ScreenMaker {
  const { locale } = intl;
  const dates = (date: Date) => intl.formatDate(date, { dateStyle: 'long', timeZone: 'UTC' });
  const linkTo = (page: SourcePage): Link => ({
    title: page.title,
    path: pagePath(locale, page.localPath),
    lang: page.contentLocale === locale ? undefined : page.contentLocale,
  });
  // By key first: a page is read only when it is a post (the built snapshot parses a page on its first use).
  const posts: PostSummary[] = [...pages.keys()]
    .filter((key) => matchRoute(key) === 'blog-post')
    .map((key) => pages.get(key)!)
    .filter((page) => !page.unlisted)
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''))
    .map((page) => ({ ...linkTo(page), ...formatDate(page, dates), description: page.description }));
  /** "Big, page 2 of 3": a page of a section's listing, as its title and its neighbours' links say it. */
  const listingTitle = (title: string, page: number, pages: number) =>
    intl.formatMessage({ id: 'docs.listingTitle' }, { title, page, pages });
  // Each version's docs are a tree of their own (sidebar, previous/next), made on its first page.
  const trees = new Map<string, ReturnType<typeof docsNavigation>>();
  const docsOf = (key: string) => {
    const root = versionOf(versions, key)?.mount ?? 'docs';
    let tree = trees.get(root);
    if (!tree) {
      const others = versions.map((version) => version.mount).filter((mount) => mount !== root && mount.startsWith(`${root}/`));
      tree = docsNavigation(pages, linkTo, locale, root, others);
      trees.set(root, tree);
    }
    return tree;
  };

  /**
   * A docs page, or a page of a section's listing: one that goes on over several pages is
   * read in order, so the section's page leads on to page 2, the last page to what follows
   * the section, and each page back to the one before; past page 1, the page is its list alone.
   */
  const docsScreen = (page: SourcePage, listingPage: number): TreeScreen | null => {
    const around = docsOf(page.key).around(page.key, listingPage);
    const pager = around.listingPager;
    const first = listingPage === 1;
    if (!first && !around.listing) return null;
    const screen = first
      ? { kind: 'docs' as const, title: page.title, html: page.html(), toc: tableOfContents(page.headings()), ...around }
      : { kind: 'docs' as const, title: listingTitle(page.title, listingPage, pager!.pages), html: '', toc: [], ...around };
    if (!pager) return screen;
    const sectionPath = linkTo(page).path;
    const link = (number: number): Link => ({
      title: listingTitle(page.title, number, pager.pages),
      path: listingPagePath(sectionPath, number),
    });
    return {
      ...screen,
      previous: first ? around.previous : link(listingPage - 1),
      next: listingPage < pager.pages ? link(listingPage + 1) : around.next,
    };
  };

  const make = (page: SourcePage, listingPage = 1): TreeScreen | null => {
    if (matchRoute(page.key) === 'docs') return docsScreen(page, listingPage);
    if (listingPage !== 1) return null;
    const { title } = page;
    const html = page.html();
    switch (matchRoute(page.key)) {
      case 'home':
        return { kind: 'home', title, html, posts: posts.slice(0, HOME_POSTS) };
      case 'blog-index':
        return { kind: 'blog-index', title, html, posts };
      case 'blog-post':
        return {
          kind: 'blog-post',
          title,
          html,
          ...formatDate(page, dates),
          author: page.author ?? '',
          readingMinutes: readingMinutes(page),
        };
      case 'article':
        return { kind: 'article', title, html };
      default:
        return null;
    }
  };
  return Object.assign(make, {
    listingPages: (page: SourcePage) => (matchRoute(page.key) === 'docs' ? docsOf(page.key).listingPages(page.key) : 0),
  });
}

/** "On this page": the sections (h2) and their subsections (h3), for a page with enough sections; else none. */
export function tableOfContents(headings: readonly Heading[]): Heading[] {
  if (headings.filter((heading) => heading.level === 2).length < TOC_MIN_SECTIONS) return [];
  return headings.filter((heading) => heading.level === 2 || heading.level === 3);
}

/**
 * `listed`: its page lists its pages whatever their number (a folder's page made for want of an index.md).
 * `closed`: the node as a sidebar entry without its children, made on its first use and then
 * shared by every sidebar that shows it so (sidebars are read, never changed).
 */
type TreeNode = { slug: string; link: Link; children: TreeNode[]; listed: boolean; collapsed: boolean; closed?: NavNode };

/**
 * The most entries one list of the sidebar shows. A longer list (a section of
 * thousands of pages) shows this many around the current page, and its section
 * links to its own page, which lists them all: so what a page carries does not
 * grow with its section.
 */
export const SIDEBAR_WINDOW = 30;

/**
 * The most entries one page of a section's listing shows. A longer listing goes on
 * over numbered pages (`<section>/~/2`), read in order by the page's previous and next
 * links: so a section's own page does not grow with the section either.
 */
export const LISTING_PAGE_SIZE = 250;

type Around = {
  sidebar: NavNode[];
  previous: Link | null;
  next: Link | null;
  /** For a section whose pages the sidebar cannot show all at once: every one of them, by title (one page's worth). */
  listing?: ListingGroup[];
  listingPager?: ListingPager;
};

/** A section's pages sorted as its listing shows them, each with its initial. */
type SortedListing = { links: Link[]; initials: string[] };

/**
 * The docs tree of one locale, built once: the docs index first, then its
 * children, nested by folder, ordered by `order` then title. A page's sidebar is
 * not the whole tree (that grows every page with the site): it shows the top
 * level, and opens only the sections on the way to the page, the page's
 * siblings and its children, as large documentation sites do. A list longer than
 * SIDEBAR_WINDOW shows a window of it around the page (its section node carries
 * `total`), and the section's own page lists all its pages. Pages that open the
 * same sections and show whole lists share one sidebar.
 */
export function docsNavigation(
  pages: ReadonlyMap<string, SourcePage>,
  linkTo: (page: SourcePage) => Link,
  locale = 'en',
  rootKey = 'docs',
  /** The mounts of the versions inside this tree's folder (`docs/0.1` in `docs`): not part of it. */
  others: readonly string[] = [],
) {
  const inside = (key: string) => key === rootKey || key.startsWith(`${rootKey}/`);
  // An unlisted page has no place in the tree: its sidebar is its folder's, and it has no previous or next.
  // By key first: only this tree's pages are read (the built snapshot parses a page on its first use).
  const docs = [...pages.keys()]
    .filter((key) => inside(key) && !others.some((mount) => key === mount || key.startsWith(`${mount}/`)))
    // Read for the tree and let go: a page is kept once a reader opens it (snapshot.ts).
    .map((key) => peekPage(pages, key)!)
    .filter((page) => !page.unlisted);
  const nodes = new Map<string, TreeNode>(
    docs.map((page) => [
      page.key,
      { slug: page.key, link: navLink(page, linkTo), children: [], listed: page.generated === true, collapsed: page.collapsed === true },
    ]),
  );
  const byOrder = (a: SourcePage, b: SourcePage) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.title.localeCompare(b.title);
  const top: TreeNode[] = [];
  for (const page of docs.filter((page) => page.key !== rootKey).sort(byOrder)) {
    const parent = nodes.get(parentSlug(page.key));
    // A page whose folder has no page of its own hangs on the top level.
    (parent && parent.slug !== rootKey ? parent.children : top).push(nodes.get(page.key)!);
  }
  const root = nodes.get(rootKey);
  const roots = root ? [root, ...top] : top;
  // The top level's own section is the docs index: a long top level is shown under it, as a section is.
  if (root && top.length > SIDEBAR_WINDOW) root.children = top;

  // Reading order (previous/next): depth first, as the full tree lists them.
  const order: Link[] = [];
  const walk = (list: TreeNode[]) => {
    for (const node of list) {
      order.push(node.link);
      walk(node.children);
    }
  };
  walk(root && root.children === top ? [root] : roots);
  const position = new Map(order.map((link, index) => [link.path, index]));
  // Each node's place in the list that holds it, so a window finds its page by the page's
  // folders (a few lookups), not by a scan of a section of thousands.
  const slotOf = new Map<string, number>();
  for (const list of [top, ...[...nodes.values()].map((node) => node.children)]) {
    for (const [index, node] of list.entries()) slotOf.set(node.slug, index);
  }
  const slotIn = (list: TreeNode[], focus: string): number => {
    for (let at = focus; at !== ''; at = parentSlug(at)) {
      const slot = slotOf.get(at);
      if (slot !== undefined && list[slot]?.slug === at) return slot;
    }
    return 0;
  };

  const sidebars = new Map<string, NavNode[]>();
  const listings = new Map<string, SortedListing>();
  /** The nodes whose children are shown: the page itself and each folder above it. */
  const opened = (slug: string): Set<string> => {
    const open = new Set<string>();
    for (let at = slug; at !== rootKey && at.includes('/'); at = parentSlug(at)) open.add(at);
    if (root?.children === top) open.add(rootKey);
    return open;
  };
  /** The list as the sidebar shows it, windowed around `focus` (the page, or the section on its way) where it is long. */
  const trim = (list: TreeNode[], open: Set<string>, focus: string, windowed: { any: boolean }): NavNode[] => {
    let shown = list;
    if (list.length > SIDEBAR_WINDOW) {
      windowed.any = true;
      const at = slotIn(list, focus);
      const start = Math.min(Math.max(0, at - Math.floor(SIDEBAR_WINDOW / 2)), list.length - SIDEBAR_WINDOW);
      shown = list.slice(start, start + SIDEBAR_WINDOW);
    }
    return shown.map((node) => {
      // A windowed sidebar is made for each page: most of its entries are closed ones, made once each.
      if (!open.has(node.slug) || node.children.length === 0) {
        node.closed ??= { ...node.link, children: [] };
        return node.closed;
      }
      const children = trim(node.children, open, focus, windowed);
      // Folded only where the reader is on the section's own page: a section holding the page is open.
      const folded = node.collapsed && node.slug === focus ? { collapsed: true as const } : {};
      return node.children.length > SIDEBAR_WINDOW
        ? { ...node.link, children, total: node.children.length, ...folded }
        : { ...node.link, children, ...folded };
    });
  };
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  /** The section's listing, sorted once; undefined for a page whose own page lists nothing. */
  const listingOf = (slug: string): SortedListing | undefined => {
    const node = nodes.get(slug);
    if (!node || !(node.children.length > SIDEBAR_WINDOW || (node.listed && node.children.length > 0))) return undefined;
    let listing = listings.get(slug);
    if (!listing) {
      listing = sortByInitial(
        node.children.map((child) => child.link),
        collator,
      );
      listings.set(slug, listing);
    }
    return listing;
  };

  return {
    /** How many pages the section's listing takes: 0 when its page lists nothing. */
    listingPages(slug: string): number {
      const listing = listingOf(slug);
      return listing ? Math.ceil(listing.links.length / LISTING_PAGE_SIZE) : 0;
    },
    /** `listingPage`: which page of the section's listing (beyond the last, there is none: no `listing`). */
    around(slug: string, listingPage = 1): Around {
      const node = nodes.get(slug);
      // A page with no children shows the same sidebar as its parent, around itself.
      const key = node && node.children.length > 0 ? slug : parentSlug(slug);
      // A collapsed section's own page shows it folded; its pages show it open: two sidebars.
      const kept = node?.collapsed && node.children.length > 0 ? `${key}\0folded` : key;
      let sidebar = sidebars.get(kept);
      if (!sidebar) {
        const windowed = { any: false };
        sidebar = trim(root?.children === top ? [root] : roots, opened(key), slug, windowed);
        // A windowed sidebar differs from page to page: made for each page (its PageData is cached), never kept here.
        if (!windowed.any) sidebars.set(kept, sidebar);
      }
      const index = node ? position.get(node.link.path) : undefined;
      const sorted = listingOf(slug);
      return {
        sidebar,
        previous: index !== undefined && index > 0 ? order[index - 1]! : null,
        next: index !== undefined && index < order.length - 1 ? order[index + 1]! : null,
        ...(sorted && listingPart(sorted, listingPage)),
      };
    },
  };
}

/**
 * One page of a section's listing: its groups, and when the listing takes several
 * pages, which one this is. Nothing for a page number beyond the last.
 */
function listingPart(sorted: SortedListing, page: number): Pick<Around, 'listing' | 'listingPager'> {
  const pages = Math.ceil(sorted.links.length / LISTING_PAGE_SIZE);
  if (page < 1 || page > pages) return {};
  const start = (page - 1) * LISTING_PAGE_SIZE;
  const end = Math.min(start + LISTING_PAGE_SIZE, sorted.links.length);
  const groups: ListingGroup[] = [];
  for (let i = start; i < end; i++) {
    const label = sorted.initials[i]!;
    const last = groups.at(-1);
    if (last && last.label === label) last.links.push(sorted.links[i]!);
    else groups.push({ label, links: [sorted.links[i]!] });
  }
  return pages === 1 ? { listing: groups } : { listing: groups, listingPager: { page, pages } };
}

/**
 * Links sorted by title in the locale's order, each with its first letter (its base
 * letter, upper case: `é` under `E`); a title that starts with no letter or digit goes under `#`.
 */
function sortByInitial(links: readonly Link[], collator: Intl.Collator): SortedListing {
  const sorted = [...links].sort((a, b) => collator.compare(a.title, b.title) || a.path.localeCompare(b.path));
  const initials = sorted.map((link) => {
    const first = [...link.title.normalize('NFD').replace(/\p{M}/gu, '')][0] ?? '';
    return /[\p{L}\p{N}]/u.test(first) ? first.toLocaleUpperCase() : '#';
  });
  return { links: sorted, initials };
}

function navLink(page: SourcePage, linkTo: (page: SourcePage) => Link): Link {
  return { ...linkTo(page), title: page.nav ?? page.title };
}

function parentSlug(slug: string): string {
  return slug.slice(0, Math.max(0, slug.lastIndexOf('/')));
}

/** Minutes to read a post, at the speed of its content's script. */
export function readingMinutes(page: Pick<SourcePage, 'contentLocale' | 'textLength'>): number {
  const perMinute = CHARS_PER_MINUTE[page.contentLocale.split('-')[0]!] ?? DEFAULT_CHARS_PER_MINUTE;
  return Math.max(1, Math.round(page.textLength / perMinute));
}

function formatDate(page: SourcePage, dates: (date: Date) => string) {
  const isoDate = page.date ?? '';
  return { isoDate, date: isoDate ? dates(new Date(`${isoDate}T00:00:00Z`)) : '' };
}
