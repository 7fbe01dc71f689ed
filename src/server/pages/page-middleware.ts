import type { Context, Middleware } from 'koa';
import { isBot } from '../http/bots.ts';
import type { CachePolicy } from '../http/cache-policy.ts';
import { rememberAnswer } from '../http/cached-answers.ts';
import { type Encoding, StoredBody } from '../http/stored-body.ts';
import { type Decider, searchPageOf } from './decide.ts';
import type { SiteSearch } from '../site/site-search.ts';
import { HttpError } from '../http/errors.ts';
import type { Logger } from '../http/log.ts';
import { reportServerError } from '../monitoring/server-monitoring.ts';
import type { Manifest } from '../site/manifest.ts';
import type { PageStore } from './page-store.ts';
import type { RenderCache } from '../http/bounded-cache.ts';
import { type DocumentRenderer, documentRenderer } from './page-document.ts';
import {
  answeredNotModified,
  answersWithOwnCompression,
  collect,
  negotiateEncoding,
  sendStored,
  sendStream,
  sendWhole,
} from '../http/send.ts';
import type { MessageUrls, MonitoringInit, PageData, SearchIndexes } from '../../routes/types.ts';
import { searchPath } from '../../routes/search/query.ts';
import { type LlmsFiles, twinPath } from '../site/llms.ts';
import { sendLlms } from './llms-route.ts';

type PageMiddlewareParts = {
  decide: Decider;
  search: Pick<SiteSearch, 'search'>;
  store: PageStore;
  manifest: Manifest;
  renderTimeoutMs: number;
  log: Logger;
  cache: RenderCache | null;
  /** Not-found pages by requested path: scanners ask for the same missing paths again and again. */
  notFoundCache: RenderCache | null;
  /** Search pages by query: visitors ask the same few questions. */
  searchCache: RenderCache | null;
  policy: CachePolicy;
  monitoring: MonitoringInit | null;
  /** Where the browser finds each locale's search index. */
  searchIndexes: SearchIndexes;
  /** Where the browser finds each locale's messages. */
  messageUrls: MessageUrls;
  /** Each page's Markdown twin: the answer to a request for the page that prefers `text/markdown`. */
  llms: LlmsFiles;
};

/** Documents under `/<locale>/<slug...>`, and the redirects into that space. */
export function pageMiddleware(parts: PageMiddlewareParts): Middleware {
  const { decide, policy } = parts;
  const sending = { ...parts, render: documentRenderer(parts) };
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
      case 'page': {
        const { page } = decision;
        const twin = page.status === 200 ? parts.llms.at(twinPath(page.path, page.locale)) : undefined;
        if (twin) {
          // The page's URL names two representations, HTML and its Markdown twin, chosen by Accept.
          ctx.vary('Accept');
          if (prefersMarkdown(ctx)) {
            ctx.set('Content-Location', twinPath(page.path, page.locale));
            return sendLlms(ctx, twin, policy);
          }
        }
        return sendPage(ctx, page, sending);
      }
      case 'search': {
        // A query asked before is answered from its kept page, before anything is searched.
        const kept = parts.searchCache?.get(searchPath(decision.locale, decision.query, decision.version ?? null));
        if (kept) {
          setPageHeaders(ctx, decision.locale, decision.locale, 200, policy);
          return sendKept(ctx, kept, negotiateEncoding(ctx), null);
        }
        return sendPage(ctx, await searchPageOf(decision, parts.store, parts.search), sending);
      }
    }
  };
}

async function sendPage(
  ctx: Context,
  page: PageData,
  { store, renderTimeoutMs, log, cache, notFoundCache, searchCache, policy, render }: PageMiddlewareParts & { render: DocumentRenderer },
): Promise<void> {
  setPageHeaders(ctx, page.locale, page.fallback?.contentLocale ?? page.locale, page.status, policy);
  const encoding = negotiateEncoding(ctx);
  if (answeredNotModified(ctx, store.etag(page), encoding)) return;

  // Fast path: a page rendered before is a lookup and a write (for HEAD, Koa sends its length, not its bytes).
  // A search page is kept by its query (its path is the same for every query), apart from
  // the pages: the queries are the visitors', so they must not push real pages out.
  const { screen } = page;
  const [pages, key] =
    screen.kind === 'search'
      ? [searchCache, searchPath(page.locale, screen.query, screen.version ?? null)]
      : [page.status === 200 ? cache : notFoundCache, page.path];
  const stored = pages?.get(key);
  // Only the page cache's are answered without Koa (cached-answers.ts); search and not-found pages always come here.
  const remembered = pages === cache ? key : null;
  if (stored) return sendKept(ctx, stored, encoding, remembered);
  // HEAD renders as GET does (and keeps the page as GET would): its headers are GET's,
  // Content-Length included, which only the rendered bytes can tell.

  let failed = false;
  const rendered = await render(page, {
    waitForAll: isBot(ctx.get('User-Agent')),
    timeoutMs: renderTimeoutMs,
    onError: (error) => {
      failed = true;
      log.error('render error', { path: ctx.path, error });
      reportServerError(error, { method: ctx.method, path: ctx.path });
    },
  });
  if (Buffer.isBuffer(rendered)) {
    // The whole document at once: kept as it is, and sent as a cached answer would be.
    if (!pages || failed) return sendWhole(ctx, rendered, encoding);
    const stored = new StoredBody(rendered, pages.arena);
    pages.set(key, stored);
    if (answersWithOwnCompression(ctx, encoding)) return sendWhole(ctx, rendered, encoding);
    return sendKept(ctx, stored, encoding, remembered);
  }
  if (pages) collect(rendered, (body) => failed || pages.set(key, new StoredBody(body, pages.arena)));
  // Compressed as it streams, flushed at each of React's chunks: not the bytes of the stored
  // form every later answer sends (one pass, a higher level). A strong ETag names one byte
  // sequence, so this one is weak; If-None-Match compares weakly, so it still gets 304s.
  if (ctx.etag && encoding !== 'identity') ctx.etag = `W/${ctx.etag}`;
  sendStream(ctx, rendered, encoding);
}

/**
 * Whether the request prefers the Markdown twin to HTML: `Accept` names text/markdown and
 * weighs it above text/html (a browser's `text/html` before its catch-all does not; `text/markdown` alone,
 * or first, does). The substring test keeps negotiation off the common path.
 */
export function prefersMarkdown(ctx: Context): boolean {
  const accept = ctx.get('Accept');
  if (!MARKDOWN.test(accept)) return false;
  return ctx.accepts('text/html', 'text/markdown') === 'text/markdown';
}

const MARKDOWN = /markdown/i;

function setPageHeaders(ctx: Context, locale: string, contentLocale: string, status: number, policy: CachePolicy): void {
  ctx.state.locale = locale;
  // The status is known before the first byte: a missing page is a real 404.
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Language', contentLocale);
  ctx.set('Cache-Control', status === 200 ? policy.page : policy.notFound);
}

/** A page from a cache; under `remembered`, its headers are kept so that the next plain GET for it is answered without Koa. */
function sendKept(ctx: Context, stored: StoredBody, encoding: Encoding, remembered: string | null): void {
  sendStored(ctx, stored, encoding);
  if (remembered) rememberAnswer(ctx, remembered, stored, encoding);
}
