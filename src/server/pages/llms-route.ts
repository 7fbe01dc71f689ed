import type { Context, Middleware } from 'koa';
import type { CachePolicy } from '../http/cache-policy.ts';
import { HttpError } from '../http/errors.ts';
import { type LlmsAnswer, type LlmsFiles, llmsEtag, twinOfPagePath } from '../site/llms.ts';
import type { Decider } from './decide.ts';

/**
 * llms.txt, llms-full.txt and each page's Markdown twin (site/llms.ts) at their exact
 * paths, cached as pages are. A `.md` path that is not a twin's is decided as its page's
 * path would be: another spelling of a page (`%e6` for `%E6`, decomposed Unicode, the
 * default locale's path of a localized page) gets one 308 to the twin's own path; a path
 * the pages refuse (dot segments, encoded slashes, control characters, too long) gets the
 * same 400 or 414. Twins are looked up in memory by exact path: no request reads a file.
 * Anything else, and any method but GET and HEAD, goes on to the pages.
 */
export function llmsMiddleware(llms: LlmsFiles, policy: CachePolicy, decide: Decider): Middleware {
  return (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const file = llms.at(ctx.path);
    if (file) return sendLlms(ctx, file, policy);
    // `/en/.md` names no page: its twin is not `/en/`'s.
    if (!ctx.path.endsWith('.md') || ctx.path.endsWith('/.md')) return next();
    const decision = decide({
      path: ctx.path.slice(0, -'.md'.length),
      search: ctx.search,
      cookie: undefined,
      acceptLanguage: undefined,
    });
    if (decision.kind === 'reject') throw new HttpError(decision.status, decision.reason);
    if (decision.kind === 'redirect' && !decision.negotiated) {
      const cut = decision.location.indexOf('?');
      const [path, query] = cut === -1 ? [decision.location, ''] : [decision.location.slice(0, cut), decision.location.slice(cut)];
      ctx.status = decision.status;
      ctx.set('Location', twinOfPagePath(path) + query);
      ctx.set('Cache-Control', policy.permanentRedirect);
      return;
    }
    // Not a page's twin (a missing page, or a path under no locale to negotiate): as any such path.
    return next();
  };
}

/** One of the llms files, or a twin, with its type, the page cache policy, and for a whole body an ETag and 304. */
export function sendLlms(ctx: Context, file: LlmsAnswer, policy: CachePolicy): void {
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
}
