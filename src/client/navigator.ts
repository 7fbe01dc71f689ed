// Client-side navigation, as a lifecycle: a click (or back/forward) asks for a
// path, its page data is loaded, history is written, the new state is rendered,
// and `arrived` finishes the visit (head, scroll, focus, announcement). Each
// step's details live in their own file: links.ts (which clicks), page-loader.ts
// (fetching), scroll-memory.ts, progress.ts, prefetch.ts, reload-guard.ts,
// locale-cookie.ts. A chunk of its own, loaded once the page has hydrated (main.tsx):
// until it has started, a click loads the linked document, as without JavaScript.
import type { LocaleMessages } from '../i18n/intl.ts';
import { ANNOUNCER_ELEMENT_ID, pageDataKey } from '../routes/page-data.ts';
import type { MessageUrls, SearchIndexes } from '../routes/types.ts';
import { updateHead } from './head.ts';
import { intlFor as intlOf } from './client-intl.ts';
import { anchorOf, isPlainClick, pagePathOf } from './links.ts';
import { rememberLocale } from './locale-cookie.ts';
import { localPages } from './local-pages.ts';
import { createPageLoader, type LoadResult } from './page-loader.ts';
import type { NavState, PageState } from './page-state.ts';
import { createPrefetcher } from './prefetch.ts';
import { showProgressSoon } from './progress.ts';
import { reloadGuard } from './reload-guard.ts';
import { createScrollMemory, restorePosition, scrollToTarget, scrollToTop } from './scroll-memory.ts';
import type { createSearchSource } from './search.ts';

/**
 * `push`: a new entry; `replace`: a link to the page already shown (the browser
 * would not add an entry either); `pop`: back/forward to an entry that exists;
 * `settle`: the document's own URL, made in the browser (a static host's search
 * page), which must not reload on failure (that would be the same document again).
 */
type Mode = 'push' | 'replace' | 'pop' | 'settle';

/** Redirects followed by client navigation before it lets the browser load the page itself. */
const MAX_REDIRECTS = 2;

/**
 * Where the client starts: the hydrated page's state, its locale's messages, where every
 * locale's messages and search indexes are, and the search box's source.
 */
export type InitialState = {
  store: PageState;
  messages: LocaleMessages;
  messageUrls: MessageUrls;
  indexes: SearchIndexes;
  search: ReturnType<typeof createSearchSource>;
};

export function createNavigator({ store, messages: first, messageUrls, indexes, search }: InitialState) {
  const initialPage = store.getSnapshot().page;
  const messages = new Map<string, LocaleMessages>([[initialPage.locale, first]]);
  // A page is shown once its locale's messages are here (the loader waits for them).
  const intlFor = (locale: string) => intlOf(messages.get(locale)!);
  const local = localPages(indexes, search, initialPage);
  // The search source and local pages read `indexes`: what a page's data adds is theirs too.
  const loader = createPageLoader(
    initialPage.build,
    messageUrls,
    (locale) => messages.get(locale),
    local,
    (found) => Object.assign(indexes, found),
  );
  const scroll = createScrollMemory();

  const setState = (next: NavState) => store.set(next);
  const locales = () => new Set(store.getSnapshot().page.locales.map((entry) => entry.locale));
  const prefetcher = createPrefetcher(loader.prefetch, locales);

  let controller: AbortController | null = null;
  let sequence = 0;
  let navigatedOnce = false;
  /** The page key (path, and the query of a search) of the latest navigation asked for, committed or still loading. */
  let currentPath = pageDataKey(location);

  async function navigate(url: URL, mode: Mode, redirects = 0): Promise<void> {
    const seq = ++sequence;
    currentPath = pageDataKey(url);
    // Racing clicks: the last one wins, earlier fetches are aborted.
    controller?.abort();
    const current = new AbortController();
    controller = current;
    const settleProgress = showProgressSoon();
    let result: LoadResult;
    try {
      result = await loader.load(pageDataKey(url), current.signal);
    } catch {
      return; // aborted by a newer navigation
    } finally {
      settleProgress(seq === sequence);
    }
    if (seq !== sequence) return;

    if (mode === 'settle' && result.kind !== 'page') return;
    if (result.kind === 'reload' || (result.kind === 'redirect' && redirects >= MAX_REDIRECTS)) return fullLoad(url, mode);
    if (result.kind === 'redirect') {
      const target = new URL(result.to, location.href);
      target.hash = url.hash; // `/docs/#part` lands on `/docs#part`, as a full load would
      return navigate(target, mode, redirects + 1);
    }

    const { page, messages: arrived } = result;
    if (arrived) messages.set(page.locale, arrived);
    let restore: [number, number] | null = null;
    if (mode === 'push') {
      scroll.save();
      history.pushState({ scroll: null }, '', url.pathname + url.search + url.hash);
    } else if (mode !== 'pop') {
      history.replaceState({ scroll: null }, '', url.pathname + url.search + url.hash);
    } else {
      restore = scroll.saved();
    }
    navigatedOnce = true;
    setState({ page, intl: intlFor(page.locale), arrival: { scroll: restore, hash: url.hash } });
  }

  /** The browser's own navigation: for stale builds, network errors and 5xx. */
  function fullLoad(url: URL, mode: Mode) {
    if (mode === 'pop') location.reload();
    else if (mode === 'replace') location.replace(url.href);
    else location.assign(url.href);
  }

  function onClick(event: MouseEvent) {
    if (!isPlainClick(event)) return;
    const anchor = anchorOf(event);
    if (!anchor || !pagePathOf(anchor, locales())) return;
    const switchTo = anchor.dataset.localeSwitch;
    if (switchTo) rememberLocale(switchTo);
    event.preventDefault();
    const url = new URL(anchor.href);
    const samePage = url.pathname === location.pathname && url.search === location.search;
    void navigate(url, samePage ? 'replace' : 'push');
  }

  function onPopState() {
    scroll.forgetPending();
    // Moving between #hash entries of the same page: the browser scrolls by itself.
    // Compared with the latest navigation, not the page on screen: back then forward
    // faster than the data arrives must end on the forward page.
    if (pageDataKey(location) === currentPath) return;
    void navigate(new URL(location.href), 'pop');
  }

  /** Gives every listener back: the browser navigates by itself again. */
  function stop() {
    document.removeEventListener('click', onClick);
    window.removeEventListener('popstate', onPopState);
    scroll.stop();
    prefetcher.stop();
    controller?.abort();
  }

  return {
    /** Takes over clicks, back/forward, scroll and prefetch; once the document has hydrated. */
    start() {
      document.addEventListener('click', onClick);
      window.addEventListener('popstate', onPopState);
      scroll.start();
      prefetcher.start();
      reloadGuard.loaded();
      // A static host serves one search page for every query: the browser runs the URL's.
      const { screen } = store.getSnapshot().page;
      if (screen.kind === 'search' && screen.staticHost) void navigate(new URL(location.href), 'settle');
    },

    stop,

    /** After React committed a navigated page: head, scroll, focus, announcement. */
    arrived(arrival: NonNullable<NavState['arrival']>) {
      const { page, intl } = store.getSnapshot();
      updateHead(page);
      place(arrival);
      document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
      const announcer = document.getElementById(ANNOUNCER_ELEMENT_ID);
      if (announcer) announcer.textContent = intl.formatMessage({ id: 'a11y.navigated' }, { title: page.head.title });
    },

    /**
     * The arrived page's place again, once its enhancements have run (main.tsx): a tab set
     * above a #target or a saved position is shorter with its tab list, one panel shown.
     */
    placeAgain(arrival: NonNullable<NavState['arrival']>) {
      if (arrival.scroll || arrival.hash) place(arrival);
    },

    /**
     * A render error. After a client navigation, try one full page load of the
     * URL first (a stale bundle is the usual cause); returns true when reloading,
     * false when the error screen is to be shown.
     * (Logging and reporting happen in hydrateRoot's onCaughtError.)
     */
    onRenderError(): boolean {
      if (navigatedOnce && reloadGuard.reloadOnce()) return true;
      // The error screen replaces the app for good: the browser navigates by itself
      // again, and back/forward to an entry we made loads that document in full.
      stop();
      window.addEventListener('popstate', () => location.reload(), { once: true });
      return false;
    },
  };
}

export type ClientNavigator = ReturnType<typeof createNavigator>;

/** Where an arrived page is shown: a saved position, a #fragment's element, or the top. */
function place(arrival: NonNullable<NavState['arrival']>): void {
  const target = arrival.hash ? document.getElementById(decodeURIComponent(arrival.hash.slice(1))) : null;
  if (arrival.scroll) restorePosition(arrival.scroll);
  else if (target) scrollToTarget(target);
  else scrollToTop();
}
