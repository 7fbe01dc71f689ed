import type { Middleware } from 'koa';
import { ATOM_CONTENT_TYPE } from '../../routes/feed.ts';
import type { CachePolicy } from '../http/cache-policy.ts';
import type { Feeds } from '../site/feeds.ts';
import { answeredNotModified, negotiateEncoding, sendStored } from '../http/send.ts';

/**
 * Each locale's Atom feed at its exact path (`/de/blog/feed.xml`, under the blog's
 * served path): a lookup in the table start-up built. Any other request, and any
 * method but GET and HEAD, goes on to the pages, which answer it as usual.
 */
export function feedMiddleware(feeds: Feeds, policy: CachePolicy): Middleware {
  return (ctx, next) => {
    const feed = ctx.method === 'GET' || ctx.method === 'HEAD' ? feeds.at(ctx.path) : undefined;
    if (!feed) return next();
    // Koa starts at 404, and `fresh` (the 304 test) holds only for a 2xx.
    ctx.status = 200;
    ctx.type = ATOM_CONTENT_TYPE;
    ctx.set('Cache-Control', policy.page);
    const encoding = negotiateEncoding(ctx);
    if (answeredNotModified(ctx, feed.etag, encoding)) return;
    sendStored(ctx, feed.body, encoding);
  };
}
