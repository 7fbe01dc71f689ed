import type { Middleware } from 'koa';
import type { CachePolicy } from '../http/cache-policy.ts';
import { type LlmsFiles, llmsEtag } from '../site/llms.ts';

/**
 * llms.txt, llms-full.txt and each page's Markdown twin (site/llms.ts) at their exact
 * paths, cached as pages are. Any other request, and any method but GET and HEAD,
 * goes on to the pages.
 */
export function llmsMiddleware(llms: LlmsFiles, policy: CachePolicy): Middleware {
  return (ctx, next) => {
    const file = ctx.method === 'GET' || ctx.method === 'HEAD' ? llms.at(ctx.path) : undefined;
    if (!file) return next();
    ctx.status = 200;
    ctx.type = file.type;
    ctx.set('Cache-Control', policy.page);
    const body = file.body();
    if (typeof body === 'string') {
      // A twin or an index is one page's worth: validated by its hash. llms-full.txt is streamed.
      ctx.etag = llmsEtag(body).slice(1, -1);
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
    }
    ctx.body = body;
  };
}
