import type { Middleware } from 'koa';
import { escapeJsonForHtml, isPerRequest, parseDataUrl } from '../routes/page-data.ts';
import type { Decider } from './decide.ts';
import { HttpError } from './errors.ts';
import type { CachePolicy } from './cache-policy.ts';
import { StoredBody } from './compression.ts';
import type { PageStore } from './page-store.ts';
import type { RenderCache } from './bounded-cache.ts';
import { answeredNotModified, negotiateEncoding, sendStored } from './send.ts';

type Deps = { decide: Decider; store: PageStore; build: string; cache: RenderCache | null; policy: CachePolicy };

/**
 * Page data for client-side navigation: `/_data/<build>/<locale>/<slug>.json`.
 * The same parse -> decide as a document request, answered as JSON.
 * `?messages=1` adds the locale's messages (the client asks when the locale changes).
 */
export function pageDataMiddleware({ decide, store, build, cache, policy }: Deps): Middleware {
  return async (ctx) => {
    const target = parseDataUrl(ctx.path);
    if (!target) throw new HttpError(404, 'Not found');
    ctx.type = 'application/json; charset=utf-8';
    if (target.build !== build) {
      // An old bundle asks for an old build's data: tell it to load the document instead.
      ctx.status = 409;
      ctx.set('Cache-Control', policy.never);
      ctx.body = { stale: true, build };
      return;
    }
    // Only `q` (the search page's query) is the page's business; `messages` is ours.
    // As `ctx.search`, which parseLocation takes: '' or '?…'.
    const query = ctx.querystring
      .split('&')
      .filter((pair) => pair === 'q' || pair.startsWith('q='))
      .join('&');
    const search = query ? `?${query}` : '';
    const decision = decide({ path: target.pagePath, search, cookie: undefined, acceptLanguage: undefined });
    switch (decision.kind) {
      case 'reject':
        throw new HttpError(decision.status, decision.reason);
      case 'redirect':
        // Only the canonical-form redirect can happen here (the client sends locale paths only).
        ctx.set('Cache-Control', policy.permanentRedirect);
        ctx.body = { redirect: decision.location };
        return;
      case 'page': {
        const { page } = decision;
        const withMessages = ctx.query.messages === '1';
        ctx.status = page.status;
        ctx.set('Cache-Control', page.status === 200 ? policy.page : policy.notFound);
        const encoding = negotiateEncoding(ctx);
        // The page's own validator, told apart from its document's and from the variant with messages.
        const etag = store.etag(page)?.replace(/"$/, withMessages ? '-dm"' : '-d"');
        if (answeredNotModified(ctx, etag, encoding)) return;
        const key = `${withMessages ? 'data+messages' : 'data'}:${page.path}`;
        const perRequest = isPerRequest(page);
        let body = perRequest ? undefined : cache?.get(key);
        if (!body) {
          const json = JSON.stringify(withMessages ? { page, messages: store.messages(page.locale) } : { page });
          // A not-found or search answer names what the visitor sent: escaped like the embedded
          // payload, so no byte of a request goes back out as raw `<` (defence in depth beside
          // nosniff). Pages carry only our own content, whose HTML would grow by a quarter if escaped.
          body = new StoredBody(Buffer.from(perRequest ? escapeJsonForHtml(json) : json));
          if (cache && !perRequest) cache.set(key, body);
        }
        sendStored(ctx, body, encoding);
      }
    }
  };
}
