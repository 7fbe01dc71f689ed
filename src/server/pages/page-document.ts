import { createElement } from 'react';
import { App } from '../../routes/app.tsx';
import { pageSearchIndexes, serializePayload, serializePayloadRest } from '../../routes/page-data.ts';
import type { MessageUrls, MonitoringInit, PageData, SearchIndexes } from '../../routes/types.ts';
import type { Config } from '../config.ts';
import { criticalStyle, type DocumentShell, documentEnd, documentStart, shellChars } from './document-shell.ts';
import type { Manifest } from '../site/manifest.ts';
import type { PageStore } from './page-store.ts';
import { type RenderedDocument, renderDocument } from './render.ts';
import { BoundedCache } from '../http/bounded-cache.ts';
import { MEMORY_BOUNDS } from '../memory-bounds.ts';

export type RenderOptions = { waitForAll: boolean; timeoutMs: number; onError: (error: unknown) => void };

/** A page's whole document, at once or as a stream (render.ts): what the server sends and the static export writes (one renderer for both). */
export type DocumentRenderer = (page: PageData, options: RenderOptions) => Promise<RenderedDocument>;

type DocumentRendererParts = {
  store: PageStore;
  manifest: Manifest;
  monitoring: MonitoringInit | null;
  /** Where the browser finds each locale's search index. */
  searchIndexes: SearchIndexes;
  /** Where the browser finds each locale's messages (message-assets.ts). */
  messageUrls: MessageUrls;
};

/** Page shells kept (memory-bounds.ts): all of a small site's; on a large one, the pages asked for most. */
const SHELL_CACHE_CHARS = MEMORY_BOUNDS.shellChars;

export function documentRenderer({ store, manifest, monitoring, searchIndexes, messageUrls }: DocumentRendererParts): DocumentRenderer {
  // What the embedded JSON holds beside the page (where each locale's messages and
  // search index are, the monitoring settings) is the same for every page: serialized once.
  // Per set of indexes a page can use (pageSearchIndexes): one per locale and docs version at most.
  const rests = new Map<string, string>();
  const restOf = (page: PageData): string => {
    const search = pageSearchIndexes(searchIndexes, page);
    const key = JSON.stringify(search);
    let rest = rests.get(key);
    if (rest === undefined) {
      rest = serializePayloadRest({ messages: messageUrls, search, ...(monitoring && { monitoring }) });
      rests.set(key, rest);
    }
    return rest;
  };
  // A page's shell, its head and its serialized data, is the same at every render of
  // that page: made at its first render and kept, by page path, in a cache bounded by its
  // characters (kept without a bound beside the page store's pages, at 10,000 pages, they
  // came to 30 MB of heap). Search and not-found pages are made per request and are not kept.
  // The critical CSS is one Buffer every shell refers to (criticalStyle), not a copy in each.
  const shells = new BoundedCache<DocumentShell>(SHELL_CACHE_CHARS, shellChars);
  const style = criticalStyle(manifest);
  const shellOf = (page: PageData): DocumentShell => {
    const kept = page.status === 200 && page.screen.kind !== 'search';
    let shell = kept ? shells.get(page.path) : undefined;
    if (!shell) {
      shell = {
        before: documentStart(page, manifest, style),
        after: documentEnd(manifest, messageUrls[page.locale]!, serializePayload({ page }, restOf(page))),
      };
      if (kept) shells.set(page.path, shell);
    }
    return shell;
  };
  return (page, options) => {
    const app = createElement(App, { page, intl: store.intl(page.locale) });
    return renderDocument(app, shellOf(page), options);
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
