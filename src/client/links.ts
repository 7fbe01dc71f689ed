import { pageDataKey } from '../routes/page-data.ts';

/**
 * Which clicks client navigation takes over: only what the browser would not do
 * better. A plain left click, with no modifier, on a same-origin link that opens
 * in this tab, is no download, names no media type (a feed: the browser's to
 * open, or to hand to a feed reader), and leads to a page under one of our
 * locales other than a #hash on the page already shown.
 */
export function isPlainClick(event: MouseEvent): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** The anchor an event happened in, if any. */
export function anchorOf(event: Event): HTMLAnchorElement | null {
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  return anchor instanceof HTMLAnchorElement ? anchor : null;
}

/** The page a link leads to (its page key: path, and a search's query), when it is one we navigate to ourselves; otherwise null. */
export function pagePathOf(anchor: HTMLAnchorElement, locales: ReadonlySet<string>): string | null {
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download') || anchor.type) return null;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return null;
  if (url.hash && url.pathname === location.pathname && url.search === location.search) return null;
  const first = url.pathname.split('/')[1] ?? '';
  return locales.has(first) ? pageDataKey(url) : null;
}
