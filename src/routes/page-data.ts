import { readLocales, readSidebar, readToc } from './read-back.ts';
import { parseSearchQuery, SEARCH_SLUG, scopeVersion, searchScope } from './search/query.ts';
import type { Head, PageData, Payload, ScreenData, SearchIndexes } from './types.ts';

// The server <-> browser wire contract, both directions side by side:
// where page data lives (its URL), how it is embedded in a document, and how
// the browser reads it back.

/** Element id of the embedded `<script type="application/json">`. */
export const PAYLOAD_ELEMENT_ID = 'polysite-data';

/** The element the browser hydrates. */
export const ROOT_ELEMENT_ID = 'root';

/** Navigation progress bar and the aria-live region, outside the React root. */
export const PROGRESS_ELEMENT_ID = 'polysite-progress';
export const ANNOUNCER_ELEMENT_ID = 'polysite-announcer';
/** The stylesheet of what only the script shows (and print): it comes with the page's scripts (document-shell.ts#documentEnd), and hydration waits for it (main.tsx). */
export const DEFERRED_CSS_ELEMENT_ID = 'polysite-deferred-css';

/** The page's <main> (layout.tsx): the skip link's target. */
export const MAIN_ELEMENT_ID = 'main';
/**
 * The page's footer (layout.tsx), after <main>: the document's head holds the first frame
 * until it is parsed (document-shell.ts, `<link rel="expect">`), so no half-parsed table,
 * header or grid is painted and then moved.
 */
export const FOOTER_ELEMENT_ID = 'polysite-footer';

/** Attribute on the element that holds a screen's rendered Markdown. */
export const CONTENT_ATTRIBUTE = 'data-content';

const DATA_PREFIX = '/_data/';
const DATA_SUFFIX = '.json';

/**
 * Page data has a URL of its own (never the HTML URL with another header, so no
 * cache can mix the two), with the build id in it: a client running an old
 * bundle asks for an old build's URL, and the server can tell it to reload.
 */
export function dataUrl(build: string, pagePath: string): string {
  // A page-data key may carry a query (see pageDataKey): it goes after the `.json`.
  const query = pagePath.indexOf('?');
  if (query !== -1) return DATA_PREFIX + build + pagePath.slice(0, query) + DATA_SUFFIX + pagePath.slice(query);
  return DATA_PREFIX + build + pagePath + DATA_SUFFIX;
}

/** The inverse of `dataUrl`: null when the path is not a data URL at all. */
export function parseDataUrl(rawPath: string): { build: string; pagePath: string } | null {
  if (!rawPath.startsWith(DATA_PREFIX) || !rawPath.endsWith(DATA_SUFFIX)) return null;
  const inner = rawPath.slice(DATA_PREFIX.length, -DATA_SUFFIX.length);
  const slash = inner.indexOf('/');
  if (slash <= 0) return null;
  return { build: inner.slice(0, slash), pagePath: inner.slice(slash) };
}

/**
 * Pages made per request from what the visitor sent (a not-found path, a search
 * query): never kept by path in a cache, and escaped wherever they go out as JSON.
 */
export function isPerRequest(page: PageData): boolean {
  return page.status !== 200 || page.screen.kind === 'search';
}

/**
 * What identifies a page's data for the browser: its path, and for the search page
 * its query too (`/en/search?q=x`), so two queries are never taken for one page.
 */
export function pageDataKey(url: { pathname: string; search: string }): string {
  if (!url.pathname.endsWith(`/${SEARCH_SLUG}`) || url.pathname.split('/').length !== 3) return url.pathname;
  const query = parseSearchQuery(url.search);
  // A query the server refuses goes to it as it is, to be refused there.
  if (query.kind === 'reject') return url.pathname + url.search;
  return query.query ? `${url.pathname}?q=${encodeURIComponent(query.query)}` : url.pathname;
}

// JSON inside <script> ends at the first `</script`, and `<!--` switches the HTML
// parser into an escaped state; U+2028/2029 broke JS string literals before ES2019.
// Escaping `<`, `>`, `&` and both separators as \u sequences is inert in JSON.
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function escapeJsonForHtml(json: string): string {
  return json.replace(UNSAFE, (char) => ESCAPES[char]!);
}

/**
 * The embedded payload leaves out what the document already shows in full: the
 * screen's `html`, the head, the language switcher's entries, a docs page's tree
 * and "On this page". The browser reads them back from the DOM (see readPayload),
 * so a page never carries them twice (on the German install guide, 2.6 KB of its
 * 22.7).
 */
export function serializePayload(payload: Payload, rest = serializePayloadRest(payload)): string {
  const { screen } = payload.page;
  const page: EmbeddedPage = { ...payload.page, head: null, locales: [] };
  if (screen.kind === 'docs') page.screen = { ...screen, html: '', sidebar: '', toc: [] };
  else if ('html' in screen) page.screen = { ...screen, html: '' };
  return `{"page":${escapeJsonForHtml(JSON.stringify(page))}${rest}}`;
}

/**
 * A page as its document embeds it: what the document shows in full is left out
 * (`head` is null, `locales` empty, a screen's `html`, a docs tree and its contents
 * empty) until readPayload reads it back. Never hand one on as PageData.
 */
export type EmbeddedPage = Omit<PageData, 'head' | 'locales'> & { head: null; locales: [] };

/** What the document's JSON element holds. */
export type EmbeddedPayload = Omit<Payload, 'page'> & { page: EmbeddedPage };

/**
 * Everything in a payload but the page (where the messages and search indexes are,
 * monitoring), serialized and escaped, for serializePayload: it is the same for every
 * page, so a server makes it once, not once per page.
 */
export function serializePayloadRest(payload: Omit<Payload, 'page'>): string {
  const { page: _page, ...rest } = payload as Partial<Payload>;
  const json = escapeJsonForHtml(JSON.stringify(rest));
  return json === '{}' ? '' : `,${json.slice(1, -1)}`;
}

/**
 * The docs version a page's search box searches: an older version's page searches that
 * version's pages, a search page the version it was asked for; null for the latest.
 */
export function searchVersionOf(page: PageData): string | null {
  return page.version?.banner ? page.version.name : page.screen.kind === 'search' ? (page.screen.version ?? null) : null;
}

/**
 * The search indexes a page can use (of `all`, the site's, one per locale and docs version):
 * each locale's in the page's version, which its search box and the language switcher
 * (it stays within the version) reach, and its own locale's latest (the search page's
 * default). A page never carries the other versions' URLs: a page of another version
 * brings its own (its page data holds them; the navigator adds them to what it knows).
 */
export function pageSearchIndexes(all: SearchIndexes, page: PageData): SearchIndexes {
  const asked = searchVersionOf(page);
  // A version no index has (a search URL's unknown `&v=`) searches the latest, as the server does.
  const version = asked !== null && searchScope(page.locale, asked) in all ? asked : null;
  const wanted: SearchIndexes = {};
  for (const scope of Object.keys(all)) {
    if (scopeVersion(scope) === version || scope === page.locale) wanted[scope] = all[scope]!;
  }
  return wanted;
}

/**
 * Browser side: the payload of the current document, with what serializePayload left
 * out restored from the DOM (read-back.ts); `readHead` reads the head
 * (src/client/head.ts: the inverse of what it writes after a navigation).
 */
export function readPayload(doc: Document, readHead: (doc: Document) => Head): Payload {
  const element = doc.getElementById(PAYLOAD_ELEMENT_ID);
  if (!element?.textContent) throw new Error(`No #${PAYLOAD_ELEMENT_ID} element: was this page rendered by polysite?`);
  const embedded = JSON.parse(element.textContent) as EmbeddedPayload;
  const screen: ScreenData = embedded.page.screen;
  if ('html' in screen) screen.html = doc.querySelector(`[${CONTENT_ATTRIBUTE}]`)?.innerHTML ?? '';
  if (screen.kind === 'docs') {
    screen.sidebar = readSidebar(doc);
    screen.toc = readToc(doc);
  }
  const page: PageData = { ...embedded.page, screen, locales: readLocales(doc), head: readHead(doc) };
  return { ...embedded, page };
}
