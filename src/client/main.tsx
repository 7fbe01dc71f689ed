import { useEffect, useSyncExternalStore } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from '../routes/app.tsx';
import { readPayload, ROOT_ELEMENT_ID } from '../routes/page-data.ts';
import { RootErrorBoundary } from './error-screen.tsx';
import { localPages } from './local-pages.ts';
import { type ClientNavigator, createNavigator } from './navigator.ts';
import { reportError, startReporting } from './reporting.ts';
import { createSearchSource } from './search.ts';
import { SearchContext } from '../routes/search-box.tsx';

/** Renders whatever page the navigator holds; after a navigation, finishes the arrival. */
function ClientApp({ navigator }: { navigator: ClientNavigator }) {
  const state = useSyncExternalStore(navigator.subscribe, navigator.getSnapshot, navigator.getSnapshot);
  useEffect(() => {
    if (state.arrival) navigator.arrived(state.arrival);
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

// The server embedded this page's data and its locale's messages: hydrate #root with them.
const payload = readPayload(document);
startReporting(payload.monitoring);
const search = createSearchSource(payload.search ?? {}, payload.page.build);
const nav = createNavigator(payload, localPages(payload.search ?? {}, search, payload.page));
const logAndReport = (error: unknown) => {
  console.error(error);
  reportError(error);
};
hydrateRoot(
  document.getElementById(ROOT_ELEMENT_ID)!,
  <RootErrorBoundary onError={nav.onRenderError}>
    <ClientApp navigator={nav} />
  </RootErrorBoundary>,
  { onCaughtError: logAndReport, onUncaughtError: logAndReport, onRecoverableError: logAndReport },
);
nav.start();
