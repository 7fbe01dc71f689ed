import type { Middleware } from 'koa';
import { createElement } from 'react';
import type { Decider } from './decide.ts';
import { Document } from './document.tsx';
import type { Manifest } from './manifest.ts';
import type { PageStore } from './page-store.ts';
import { isBot, renderStream } from './render.ts';
import { HttpError } from './errors.ts';
import type { Logger } from './log.ts';

type Deps = { decide: Decider; store: PageStore; manifest: Manifest; renderTimeoutMs: number; log: Logger };

/** Documents under `/<locale>/<slug...>`, and the redirects into that space. */
export function pagesMiddleware({ decide, store, manifest, renderTimeoutMs, log }: Deps): Middleware {
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
          ctx.set('Vary', 'Accept-Language, Cookie');
          ctx.set('Cache-Control', 'private, no-cache');
        }
        return;
      case 'page': {
        const { page } = decision;
        ctx.state.locale = page.locale;
        // The status is known before the first byte: a missing page is a real 404.
        ctx.status = page.status;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Content-Language', page.fallback?.contentLocale ?? page.locale);
        if (ctx.method === 'HEAD') return;
        const element = createElement(Document, {
          page,
          intl: store.intl(page.locale),
          messages: store.messages(page.locale),
          manifest,
        });
        ctx.body = await renderStream(element, {
          waitForAll: isBot(ctx.get('User-Agent')),
          timeoutMs: renderTimeoutMs,
          onError: (error) => log.error('render error', { path: ctx.path, error }),
        });
      }
    }
  };
}
