import type { CompiledMessages, Translator } from '../i18n/intl.ts';
import { makeClientIntl } from './intl.ts';
import { ANNOUNCER_ELEMENT_ID, PROGRESS_ELEMENT_ID } from '../routes/page-data.ts';
import type { PageData, Payload } from '../routes/types.ts';
import { updateHead } from './head.ts';
import { createPageLoader, type LoadResult } from './page-loader.ts';

/**
 * Client-side navigation: which clicks to take over, fetching page data,
 * history and scroll, and the state React renders (read through
 * useSyncExternalStore). It handles only what the browser would not do better.
 */
export type NavState = {
  page: PageData;
  intl: Translator;
  /** Set after a client navigation, until the screen has been committed. */
  arrival: { scroll: [number, number] | null; hash: string } | null;
};

/** Progress shows only for navigations slower than this. */
const PROGRESS_DELAY_MS = 150;
/** Hover intent before a prefetch. */
const PREFETCH_DELAY_MS = 65;
const RELOADED_KEY = 'polysite:reloaded';

export function createNavigator(initial: Payload) {
  const build = initial.page.build;
  const messages = new Map<string, CompiledMessages>([[initial.page.locale, initial.messages ?? {}]]);
  const intls = new Map<string, Translator>();
  const intlFor = (locale: string) => {
    let intl = intls.get(locale);
    if (!intl) {
      intl = makeClientIntl(locale, messages.get(locale) ?? {});
      intls.set(locale, intl);
    }
    return intl;
  };
  const loader = createPageLoader(build, (locale) => messages.has(locale));
  const listeners = new Set<() => void>();
  let state: NavState = { page: initial.page, intl: intlFor(initial.page.locale), arrival: null };
  let controller: AbortController | null = null;
  let sequence = 0;
  let navigatedOnce = false;
  /** The path of the latest navigation asked for, committed or still loading. */
  let currentPath = initial.page.path;

  const localeSet = () => new Set(state.page.locales.map((entry) => entry.locale));

  function setState(next: NavState) {
    state = next;
    for (const listener of listeners) listener();
  }

  /** A link we take over: same origin, same tab, no download, a page under a locale, not a same-page #hash. */
  function pagePathOf(anchor: HTMLAnchorElement): string | null {
    if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin) return null;
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return null;
    const first = url.pathname.split('/')[1] ?? '';
    return localeSet().has(first) ? url.pathname : null;
  }

  /**
   * `push`: a new entry; `replace`: a link to the page already shown (the browser
   * would not add an entry either); `pop`: back/forward to an entry that exists.
   */
  async function navigate(url: URL, mode: 'push' | 'replace' | 'pop', redirects = 0): Promise<void> {
    const seq = ++sequence;
    currentPath = url.pathname;
    // Racing clicks: the last one wins, earlier fetches are aborted.
    controller?.abort();
    const current = new AbortController();
    controller = current;
    const progress = setTimeout(() => toggleProgress(true), PROGRESS_DELAY_MS);
    let result: LoadResult;
    try {
      result = await loader.load(url.pathname, current.signal);
    } catch {
      return; // aborted by a newer navigation
    } finally {
      clearTimeout(progress);
      if (seq === sequence) toggleProgress(false);
    }
    if (seq !== sequence) return;

    if (result.kind === 'reload' || (result.kind === 'redirect' && redirects > 2)) return fullLoad(url, mode);
    if (result.kind === 'redirect') {
      const target = new URL(result.to, location.href);
      target.hash = url.hash; // `/docs/#part` lands on `/docs#part`, as a full load would
      return navigate(target, mode, redirects + 1);
    }

    const { page, messages: arrived } = result.payload;
    if (arrived) messages.set(page.locale, arrived);
    let scroll: [number, number] | null = null;
    if (mode === 'push') {
      saveScroll();
      history.pushState({ scroll: null }, '', url.pathname + url.search + url.hash);
    } else if (mode === 'replace') {
      history.replaceState({ scroll: null }, '', url.pathname + url.search + url.hash);
    } else {
      scroll = (history.state as { scroll?: [number, number] } | null)?.scroll ?? null;
    }
    navigatedOnce = true;
    setState({ page, intl: intlFor(page.locale), arrival: { scroll, hash: url.hash } });
  }

  /** The browser's own navigation: for stale builds, network errors and 5xx. */
  function fullLoad(url: URL, mode: 'push' | 'replace' | 'pop') {
    if (mode === 'pop') location.reload();
    else if (mode === 'replace') location.replace(url.href);
    else location.assign(url.href);
  }

  /**
   * With scroll restoration in our hands (`manual`), every entry keeps its own
   * position in history.state: written as the visitor scrolls (debounced), when a
   * page is left by a link, and when the document is hidden, so back, forward and
   * reload all find it, across client navigations and full loads alike.
   */
  let scrollTimer: ReturnType<typeof setTimeout> | undefined;
  function saveScroll() {
    clearTimeout(scrollTimer);
    history.replaceState({ ...history.state, scroll: [scrollX, scrollY] }, '');
  }
  function onScroll() {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(saveScroll, 150);
  }

  function toggleProgress(on: boolean) {
    const bar = document.getElementById(PROGRESS_ELEMENT_ID);
    if (bar) bar.hidden = !on;
  }

  function onClick(event: MouseEvent) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (!(anchor instanceof HTMLAnchorElement)) return;
    const path = pagePathOf(anchor);
    if (!path) return;
    const switchTo = anchor.dataset.localeSwitch;
    if (switchTo) rememberLocale(switchTo);
    event.preventDefault();
    const url = new URL(anchor.href);
    const samePage = url.pathname === location.pathname && url.search === location.search;
    void navigate(url, samePage ? 'replace' : 'push');
  }

  function onPopState() {
    // A position still waiting to be saved belongs to the entry just left, not this one.
    clearTimeout(scrollTimer);
    // Moving between #hash entries of the same page: the browser scrolls by itself.
    // Compared with the latest navigation, not the page on screen: back then forward
    // faster than the data arrives must end on the forward page.
    if (location.pathname === currentPath) return;
    void navigate(new URL(location.href), 'pop');
  }

  let hoverTimer: ReturnType<typeof setTimeout> | undefined;
  function onIntent(event: Event) {
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (!(anchor instanceof HTMLAnchorElement)) return;
    const path = pagePathOf(anchor);
    if (!path || path === location.pathname) return;
    clearTimeout(hoverTimer);
    if (event.type === 'touchstart') return loader.prefetch(path);
    hoverTimer = setTimeout(() => loader.prefetch(path), PREFETCH_DELAY_MS);
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,

    start() {
      history.scrollRestoration = 'manual';
      document.addEventListener('click', onClick);
      window.addEventListener('popstate', onPopState);
      document.addEventListener('pointerover', onIntent);
      document.addEventListener('focusin', onIntent);
      document.addEventListener('touchstart', onIntent, { passive: true });
      document.addEventListener('pointerout', () => clearTimeout(hoverTimer));
      window.addEventListener('scroll', onScroll, { passive: true });
      window.addEventListener('pagehide', saveScroll);
      // A reload, or back/forward to a document that was loaded in full: where it was left.
      const saved = (history.state as { scroll?: [number, number] | null } | null)?.scroll;
      const arrivedBy = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
      if (saved && (arrivedBy === 'reload' || arrivedBy === 'back_forward')) scrollTo(saved[0], saved[1]);
      // Reaching here means the document loaded fine: a later error may reload once again.
      session.remove(RELOADED_KEY);
    },

    /** After React committed a navigated page: head, scroll, focus, announcement. */
    arrived(arrival: NonNullable<NavState['arrival']>) {
      const { page } = state;
      updateHead(page);
      const target = arrival.hash ? document.getElementById(decodeURIComponent(arrival.hash.slice(1))) : null;
      if (arrival.scroll) scrollTo(arrival.scroll[0], arrival.scroll[1]);
      else if (target) target.scrollIntoView();
      else scrollTo(0, 0);
      document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
      const announcer = document.getElementById(ANNOUNCER_ELEMENT_ID);
      if (announcer) announcer.textContent = state.intl.formatMessage({ id: 'a11y.navigated' }, { title: page.head.title });
    },

    /**
     * A render error. After a client navigation, try one full page load of the
     * URL first (a stale bundle is the usual cause); returns true when reloading.
     * (Logging and reporting happen in hydrateRoot's onCaughtError.)
     */
    onRenderError(): boolean {
      if (!navigatedOnce || session.get(RELOADED_KEY) === location.pathname) return false;
      // Without storage (blocked by the browser) a second failure looks like a first: no reload.
      if (!session.set(RELOADED_KEY, location.pathname)) return false;
      location.reload();
      return true;
    },
  };
}

export type Navigator = ReturnType<typeof createNavigator>;

/** sessionStorage, which a browser may refuse (storage blocked for the site): never throws. */
const session = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** False when the browser refuses to store. */
  set(key: string, value: string): boolean {
    try {
      sessionStorage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  },
  remove(key: string): void {
    try {
      sessionStorage.removeItem(key);
    } catch {}
  },
};

/** The switcher's choice, remembered for `/` (read by the server's negotiation). */
function rememberLocale(locale: string) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support (Safari, Firefox).
  document.cookie = `locale=${encodeURIComponent(locale)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
