import { useEffect, useSyncExternalStore } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from '../routes/app.tsx';
import { readPayload, ROOT_ELEMENT_ID } from '../routes/page-data.ts';
import { RootErrorBoundary } from './error-screen.tsx';
import { readHead } from './head.ts';
import { localPages } from './local-pages.ts';
import { type ClientNavigator, createNavigator } from './navigator.ts';
import { reportError, startReporting } from './reporting.ts';
import { createSearchSource } from './search.ts';
import { SearchContext } from '../routes/search-box.tsx';
import type { LocaleMessages } from '../i18n/intl.ts';

/** Renders whatever page the navigator holds; after a navigation, finishes the arrival. */
function ClientApp({ navigator }: { navigator: ClientNavigator }) {
  const state = useSyncExternalStore(navigator.subscribe, navigator.getSnapshot, navigator.getSnapshot);
  useEffect(() => {
    if (state.arrival) navigator.arrived(state.arrival);
    // Copy buttons and tab lists: their script is loaded only for a page that has some.
    if (document.querySelector('.code-copy[hidden],.tabs:not([data-enhanced])'))
      import('./code-blocks.ts').then((code) => code.enhance(document), logAndReport);
  }, [state, navigator]);
  useEffect(() => {
    // Hydration committed: a hook for tests and for anyone measuring time to interactive.
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    <SearchContext.Provider value={search}>
      <App page={state.page} intl={state.intl} />
    </SearchContext.Provider>
  );
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
fetchMessages(messageUrls[page.locale]).then((messages) => {
  const nav = createNavigator({ page, messages, messageUrls }, localPages(indexes, search, page));
  hydrateRoot(
    document.getElementById(ROOT_ELEMENT_ID)!,
    <RootErrorBoundary onError={nav.onRenderError}>
      <ClientApp navigator={nav} />
    </RootErrorBoundary>,
    { onCaughtError: logAndReport, onUncaughtError: logAndReport, onRecoverableError: logAndReport },
  );
  nav.start();
  // Without its messages the page is not hydrated, and stays the server's complete page:
  // its links and forms work as plain document loads. Reported, as a failed hydration would be.
}, logAndReport);

/**
 * The locale's messages: the same request as the document's preload, which the browser
 * reuses (same URL; fetch's default credentials mode, same-origin, is `crossorigin`'s).
 */
async function fetchMessages(url: string | undefined): Promise<LocaleMessages> {
  const response = await fetch(url!);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return (await response.json()) as LocaleMessages;
}
