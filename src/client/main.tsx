import { startTransition, useEffect, useSyncExternalStore } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from '../routes/app.tsx';
import { DEFERRED_CSS_ELEMENT_ID, readPayload, ROOT_ELEMENT_ID } from '../routes/page-data.ts';
import { RootErrorBoundary } from './error-screen.tsx';
import { readHead } from './read-head.ts';
import type { ClientNavigator } from './navigator.ts';
import { intlFor } from './client-intl.ts';
import { createPageState, type PageState } from './page-state.ts';
import { reportError, startReporting } from './reporting.ts';
import { createSearchSource } from './search.ts';
import { SearchContext } from '../routes/search-box.tsx';
import type { LocaleMessages } from '../i18n/intl.ts';

/**
 * The navigator, once its chunk has arrived and started: the first load carries only what
 * hydrating the page needs. Until then a click is the browser's own (a document load).
 */
let nav: ClientNavigator | null = null;
/** The error screen replaced the app before the navigator came: it is not started then. */
let failed = false;

/** Renders whatever page the store holds; after a navigation, finishes the arrival. */
function ClientApp({ store, messages }: { store: PageState; messages: LocaleMessages }) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  useEffect(() => {
    const { arrival } = state;
    let current = true;
    if (arrival) nav?.arrived(arrival);
    // Copy buttons and tab lists: their script is loaded only for a page that has some.
    if (document.querySelector('.code-copy[hidden],.tabs:not([data-enhanced])'))
      import('./code-blocks.ts').then((code) => {
        code.enhance(document);
        // A tab set shows one panel once enhanced, so what is below it moves up: the place
        // arrived at (a #target, a saved position) is taken again, unless a newer visit came.
        if (arrival && current) nav?.placeAgain(arrival);
      }, logAndReport);
    if (document.querySelector('.copy-page[hidden]')) import('./copy-page.ts').then((copy) => copy.enhance(document), logAndReport);
    if (document.querySelector('[data-docs-section]'))
      import('./sections.ts').then((sections) => sections.keepFolding(document), logAndReport);
    return () => {
      current = false;
    };
  }, [state]);
  useEffect(() => {
    // Hydration committed: now the client navigation, a chunk of its own.
    import('./navigator.ts').then(({ createNavigator }) => {
      if (failed) return;
      nav = createNavigator({ store, messages, messageUrls, indexes, search });
      nav.start();
      // The page is React's and its links the navigator's: a hook for tests and for anyone measuring time to interactive.
      document.documentElement.dataset.hydrated = '';
    }, logAndReport);
  }, [store, messages]);
  return (
    <SearchContext.Provider value={search}>
      <App page={state.page} intl={state.intl} />
    </SearchContext.Provider>
  );
}

/**
 * A render error: the navigator decides (it may reload once after a navigation). Before it
 * came, the error screen, for good; back/forward to another entry (a reload keeps those
 * the navigator made before it) loads that document in full, as the navigator would.
 */
function onRenderError(): boolean {
  if (nav) return nav.onRenderError();
  failed = true;
  window.addEventListener('popstate', () => location.reload(), { once: true });
  return false;
}

// The server embedded this page's data, and preloaded its locale's messages (a
// content-hashed asset, shared by every page of the locale): hydrate #root with both.
const { page, monitoring, search: indexes = {}, messages: messageUrls = {} } = readPayload(document, readHead);
startReporting(monitoring);
const search = createSearchSource(indexes, page.build);
const logAndReport = (error: unknown) => {
  console.error(error);
  reportError(error);
};
Promise.all([fetchMessages(messageUrls[page.locale]), deferredCss()]).then(([messages]) => {
  const store = createPageState({ page, intl: intlFor(messages), arrival: null });
  // Hydrating in a transition lets React yield to the browser every few milliseconds
  // (a default-priority hydration runs as one task): no long task while a reader scrolls.
  startTransition(() => {
    hydrateRoot(
      document.getElementById(ROOT_ELEMENT_ID)!,
      <RootErrorBoundary onError={onRenderError}>
        <ClientApp store={store} messages={messages} />
      </RootErrorBoundary>,
      { onCaughtError: logAndReport, onUncaughtError: logAndReport, onRecoverableError: logAndReport },
    );
  });
  // Without its messages the page is not hydrated, and stays the server's complete page:
  // its links and forms work as plain document loads. Reported, as a failed hydration would be.
}, logAndReport);

/**
 * The stylesheet of what only the script shows (tabs, the search box's list, the progress
 * bar) comes with the scripts, not before the first paint, and loads on its own: hydration
 * waits for it, so nothing it styles is ever drawn without it (a tab list would move the page).
 * A sheet that fails to load does not stop hydration.
 */
function deferredCss(): Promise<unknown> {
  const link = document.getElementById(DEFERRED_CSS_ELEMENT_ID);
  if (!(link instanceof HTMLLinkElement) || link.sheet) return Promise.resolve();
  return new Promise((settle) => {
    link.addEventListener('load', settle, { once: true });
    link.addEventListener('error', settle, { once: true });
  });
}

/**
 * The locale's messages: the same request as the document's preload, which the browser
 * reuses (same URL; fetch's default credentials mode, same-origin, is `crossorigin`'s).
 */
async function fetchMessages(url: string | undefined): Promise<LocaleMessages> {
  const response = await fetch(url!);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return (await response.json()) as LocaleMessages;
}
