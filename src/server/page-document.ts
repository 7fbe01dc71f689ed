import type { Readable } from 'node:stream';
import { createElement } from 'react';
import { App } from '../routes/app.tsx';
import { serializePayload, serializePayloadRest } from '../routes/page-data.ts';
import type { MonitoringInit, PageData, SearchIndexes } from '../routes/types.ts';
import type { Config } from './config.ts';
import { type DocumentShell, documentShell } from './document.ts';
import type { Manifest } from './manifest.ts';
import type { PageStore } from './page-store.ts';
import { renderStream } from './render.ts';

export type RenderOptions = { waitForAll: boolean; timeoutMs: number; onError: (error: unknown) => void };

/** A page's whole document as a stream: what the server sends and the static export writes (one renderer for both). */
export type DocumentRenderer = (page: PageData, options: RenderOptions) => Promise<Readable>;

type Deps = {
  store: PageStore;
  manifest: Manifest;
  monitoring: MonitoringInit | null;
  /** Where the browser finds each locale's search index. */
  searchIndexes: SearchIndexes;
};

export function documentRenderer({ store, manifest, monitoring, searchIndexes }: Deps): DocumentRenderer {
  // The embedded JSON's largest part, the locale's messages (with the search index
  // URLs and the monitoring settings), is the same for every page of the locale:
  // serialized once, at the first render in that locale.
  const rests = new Map<string, string>();
  const embedded = (page: PageData): string => {
    let rest = rests.get(page.locale);
    if (rest === undefined) {
      rest = serializePayloadRest({ messages: store.messages(page.locale), search: searchIndexes, ...(monitoring && { monitoring }) });
      rests.set(page.locale, rest);
    }
    return serializePayload({ page }, rest);
  };
  // The shell around a page (its head, its serialized data) is the same at every render
  // of that page: made at its first render and kept as long as the page store keeps the
  // page (a WeakMap: a page the store drops takes its shell with it, and a not-found
  // page, made per request, never outlives its request). A page's data is immutable.
  const shells = new WeakMap<PageData, DocumentShell>();
  const shellOf = (page: PageData): DocumentShell => {
    let shell = shells.get(page);
    if (!shell) {
      shell = documentShell(page, manifest, embedded(page));
      shells.set(page, shell);
    }
    return shell;
  };
  return (page, options) => {
    const app = createElement(App, { page, intl: store.intl(page.locale) });
    return renderStream(app, shellOf(page), options);
  };
}

/** What the browser SDK is told, when SENTRY_DSN is set: the server embeds it in every page, and so does the export. */
export function browserMonitoring(config: Pick<Config, 'sentry' | 'monitoring'>, build: string): MonitoringInit | null {
  const { sentry } = config;
  return (
    sentry && {
      dsn: sentry.dsn,
      tunnel: config.monitoring.path,
      environment: sentry.environment,
      release: sentry.release ?? build,
      tracesSampleRate: sentry.tracesSampleRate,
    }
  );
}
