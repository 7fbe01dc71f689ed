import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { accessLine, requestIdOf } from './access-log.ts';
import type { RenderCache } from './bounded-cache.ts';
import { chooseEncoding, type Encoding, type StoredBody } from './stored-body.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { HTTPS_ONLY_HEADER, requestOverHttps } from './security-headers.ts';

/**
 * Pages the render cache holds, answered again without Koa.
 *
 * The first answer for a page in each encoding goes through the whole app, and
 * pages.ts records the headers it was sent with beside the body (rememberAnswer).
 * From then on, a plain GET for that page's exact URL is a lookup and one write:
 * the same status, headers and bytes, with this request's own id, https header
 * and access log line, and a place in the drain count while the socket has not
 * taken the whole answer (rarely: it is one write). The line is written right after the
 * write, not from a 'close' listener: its `ms` is the time to hand the whole answer
 * to the socket, and in paired bench turns the listener and the closure it kept
 * until 'close' cost 5-7 % of a cached answer's req per CPU-s. Everything else goes to Koa:
 * other methods, conditional requests (a 304 is the app's to make), URLs with a
 * query or in another spelling, a form not sent once yet, and every request
 * while draining. On the bench's cached page, Koa's part (its context, the
 * middleware's promises, the route decision and twenty header calls) was over a
 * third of the CPU of each answer.
 */
export type CachedAnswers = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Headers that belong to one request, not to the page: never recorded, made again for each answer. */
const PER_REQUEST = new Set(['x-request-id', 'strict-transport-security', 'connection', 'date', 'keep-alive']);

const SLASH = 47;
const MARKDOWN = /markdown/i;

export function cachedAnswers({
  rendered,
  lifecycle,
  log,
  trustProxy,
}: {
  rendered: RenderCache;
  lifecycle: Lifecycle;
  log: Logger;
  trustProxy: number;
}): CachedAnswers {
  return (req, res) => {
    const url = req.url ?? '';
    // Cache keys are page paths: a URL that is not one (`http://…`, `*`) is never looked up.
    if (req.method !== 'GET' || lifecycle.draining || url.charCodeAt(0) !== SLASH) return false;
    const { headers } = req;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    // A page's URL may also answer its Markdown twin (Accept: text/markdown): the app decides which.
    if (headers.accept !== undefined && MARKDOWN.test(headers.accept)) return false;
    const stored = rendered.get(url);
    if (!stored) return false;
    const encoding = chooseEncoding(headers['accept-encoding']);
    // No acceptable encoding: the app answers the 406.
    if (encoding === null) return false;
    const sentWith = stored.sentWith[encoding];
    if (!sentWith) return false;

    const incoming = headers['x-request-id'];
    const id = requestIdOf(typeof incoming === 'string' ? incoming : undefined);
    const line = accessLine(log, req, res, { id, path: url });
    const sent = ['X-Request-Id', id, ...sentWith];
    if (requestOverHttps(req, trustProxy)) sent.push(...HTTPS_ONLY_HEADER);
    res.writeHead(200, sent);
    res.end(stored.get(encoding));
    lifecycle.trackUnlessWritten(res);
    line?.(true);
    return true;
  };
}

/**
 * Records the headers of a page answered from the render cache, for cachedAnswers:
 * only a 200 to a plain GET of the page's own URL (`key`), only the first time for
 * each encoding, and only when every header is one value (never a cookie).
 */
export function rememberAnswer(ctx: Context, key: string, stored: StoredBody, encoding: Encoding): void {
  if (ctx.method !== 'GET' || ctx.url !== key || ctx.status !== 200 || stored.sentWith[encoding]) return;
  const headers: string[] = [];
  // As spelled when set (Node's documented OutgoingMessage method, missing from @types/node 20).
  const res = ctx.res as typeof ctx.res & { getRawHeaderNames(): string[] };
  for (const name of res.getRawHeaderNames()) {
    if (PER_REQUEST.has(name.toLowerCase())) continue;
    const value = res.getHeader(name);
    if (Array.isArray(value) || value === undefined || name.toLowerCase() === 'set-cookie') return;
    headers.push(name, String(value));
  }
  stored.sentWith[encoding] = headers;
}
