import type { Context, Middleware } from 'koa';
import { createElement } from 'react';
import type { Decider } from './decide.ts';
import { Document } from './document.tsx';
import { HttpError } from './errors.ts';
import type { Logger } from './log.ts';
import { reportServerError } from './server-monitoring.ts';
import type { Manifest } from './manifest.ts';
import type { PageStore } from './page-store.ts';
import type { RenderCache } from './render-cache.ts';
import { isBot, renderStream } from './render.ts';
import { collect, negotiateEncoding, representationTag, sendStored, sendStream, StoredBody, type CachePolicy } from './respond.ts';
import type { MonitoringInit, PageData } from '../routes/types.ts';
import { serializePayload } from '../routes/page-data.ts';

type Deps = {
  decide: Decider;
  store: PageStore;
  manifest: Manifest;
  renderTimeoutMs: number;
  log: Logger;
  cache: RenderCache | null;
  /** Not-found pages by requested path: scanners ask for the same missing paths again and again. */
  notFoundCache: RenderCache | null;
  policy: CachePolicy;
  monitoring: MonitoringInit | null;
};

/** Documents under `/<locale>/<slug...>`, and the redirects into that space. */
export function pagesMiddleware(deps: Deps): Middleware {
  const { decide, policy, store, monitoring } = deps;
  // A page's embedded JSON (page data + its locale's messages) never changes between
  // deploys: serialize and escape it once per page, not per request. Not-found data
  // names the requested path, so it is made each time.
  const payloads = new WeakMap<PageData, string>();
  const embedded = (page: PageData): string => {
    let json = payloads.get(page);
    if (json === undefined) {
      const messages = store.messages(page.locale);
      json = serializePayload(monitoring ? { page, messages, monitoring } : { page, messages });
      if (page.status === 200) payloads.set(page, json);
    }
    return json;
  };
  const sendDeps = { ...deps, embedded };
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new HttpError(405, 'Method not allowed');
    }
    const decision = decide({
      path: ctx.path,
      search: ctx.search,
      cookie: ctx.cookies.get('locale'),
      acceptLanguage: ctx.get('Accept-Language') || undefined,
    });

    switch (decision.kind) {
      case 'reject':
        throw new HttpError(decision.status, decision.reason);
      case 'redirect':
        ctx.status = decision.status;
        ctx.set('Location', decision.location);
        if (decision.negotiated) {
          // The answer depends on who asks: shared caches must not keep it.
          ctx.vary('Accept-Language');
          ctx.vary('Cookie');
          ctx.set('Cache-Control', policy.negotiated);
        } else {
          ctx.set('Cache-Control', policy.permanentRedirect);
        }
        return;
      case 'page':
        return sendPage(ctx, decision.page, sendDeps);
    }
  };
}

async function sendPage(
  ctx: Context,
  page: PageData,
  { store, manifest, renderTimeoutMs, log, cache, notFoundCache, policy, embedded }: Deps & { embedded: (page: PageData) => string },
): Promise<void> {
  ctx.state.locale = page.locale;
  // The status is known before the first byte: a missing page is a real 404.
  ctx.status = page.status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Language', page.fallback?.contentLocale ?? page.locale);
  ctx.set('Cache-Control', page.status === 200 ? policy.page : policy.notFound);
  const encoding = negotiateEncoding(ctx);
  const etag = store.etag(page);
  if (etag) {
    ctx.etag = representationTag(etag, encoding);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
  }

  // Fast path: a page rendered before is a lookup and a write (for HEAD, Koa sends its length, not its bytes).
  const pages = page.status === 200 ? cache : notFoundCache;
  const stored = pages?.get(page.path);
  if (stored) return sendStored(ctx, stored, encoding);
  if (ctx.method === 'HEAD') {
    if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
    return;
  }

  let failed = false;
  const stream = await renderStream(createElement(Document, { page, intl: store.intl(page.locale), payload: embedded(page), manifest }), {
    waitForAll: isBot(ctx.get('User-Agent')),
    timeoutMs: renderTimeoutMs,
    onError: (error) => {
      failed = true;
      log.error('render error', { path: ctx.path, error });
      reportServerError(error, { method: ctx.method, path: ctx.path });
    },
  });
  if (pages) collect(stream, (body) => failed || pages.set(page.path, new StoredBody(body)));
  sendStream(ctx, stream, encoding);
}
