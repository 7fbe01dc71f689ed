import type { Middleware } from 'koa';
import { escapeJsonForHtml, isPerRequest, pageSearchIndexes, parseDataUrl } from '../../routes/page-data.ts';
import type { PageData, SearchIndexes } from '../../routes/types.ts';
import { type Decider, searchPageOf } from './decide.ts';
import type { SiteSearch } from '../site/site-search.ts';
import { scopeVersion, searchPath } from '../../routes/search/query.ts';
import { HttpError } from '../http/errors.ts';
import type { CachePolicy } from '../http/cache-policy.ts';
import { StoredBody } from '../http/stored-body.ts';
import type { PageStore } from './page-store.ts';
import type { RenderCache } from '../http/bounded-cache.ts';
import { answeredNotModified, answersWithOwnCompression, negotiateEncoding, sendStored, sendWhole } from '../http/send.ts';

type PageDataRouteParts = {
  decide: Decider;
  store: PageStore;
  /** Searches, and the index URLs each page's data names (pageSearchIndexes). */
  search: Pick<SiteSearch, 'search' | 'indexes'>;
  build: string;
  cache: RenderCache | null;
  /** Search answers by query, as for documents (page-middleware.ts): looked up before anything is searched. */
  searchCache: RenderCache | null;
  policy: CachePolicy;
};

/**
 * Page data for client-side navigation: `/_data/<build>/<locale>/<slug>.json`.
 * The same parse -> decide as a document request, answered as JSON. (A locale's
 * messages are an asset of their own: message-assets.ts.)
 */
export function pageDataMiddleware({
  decide,
  store,
  search: siteSearch,
  build,
  cache,
  searchCache,
  policy,
}: PageDataRouteParts): Middleware {
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
    // Only `q` (the search page's query) and `v` (the docs version searched) are the page's business.
    // As `ctx.search`, which parseLocation takes: '' or '?…'.
    const query = ctx.querystring
      .split('&')
      .filter((pair) => pair === 'q' || pair.startsWith('q=') || pair.startsWith('v='))
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
      case 'search': {
        ctx.set('Cache-Control', policy.page);
        const key = `data:${searchPath(decision.locale, decision.query, decision.version ?? null)}`;
        const encoding = negotiateEncoding(ctx);
        let body = searchCache?.get(key);
        if (!body) {
          const page = await searchPageOf(decision, store, siteSearch);
          body = new StoredBody(pageDataJson(page, siteSearch.indexes), searchCache?.arena);
          searchCache?.set(key, body);
          if (answersWithOwnCompression(ctx, encoding)) return sendWhole(ctx, body.identity, encoding);
        }
        sendStored(ctx, body, encoding);
        return;
      }
      case 'page': {
        const { page } = decision;
        ctx.status = page.status;
        ctx.set('Cache-Control', page.status === 200 ? policy.page : policy.notFound);
        const encoding = negotiateEncoding(ctx);
        // The page's own validator, told apart from its document's.
        const etag = store.etag(page)?.replace(/"$/, '-d"');
        if (answeredNotModified(ctx, etag, encoding)) return;
        const key = `data:${page.path}`;
        const perRequest = isPerRequest(page);
        let body = perRequest ? undefined : cache?.get(key);
        if (!body) {
          const kept = cache && !perRequest ? cache : null;
          body = new StoredBody(pageDataJson(page, siteSearch.indexes), kept?.arena);
          kept?.set(key, body);
          if (answersWithOwnCompression(ctx, encoding)) return sendWhole(ctx, body.identity, encoding);
        }
        sendStored(ctx, body, encoding);
      }
    }
  };
}

/** A page's data as the client fetches it: what the server answers and the static export writes. */
/**
 * On a site with docs versions, with the search indexes the page can use (of `indexes`, the
 * site's: pageSearchIndexes), so a client that navigates to another version learns where its
 * indexes are (a document names only its own version's). Without versions, every document
 * names them all.
 */
export function pageDataJson(page: PageData, indexes: SearchIndexes): string {
  const versioned = Object.keys(indexes).some((scope) => scopeVersion(scope) !== null);
  const json = JSON.stringify(versioned ? { page, search: pageSearchIndexes(indexes, page) } : { page });
  // A not-found or search answer names what the visitor sent: escaped like the embedded
  // payload, so no byte of a request goes back out as raw `<` (defence in depth beside
  // nosniff). Pages carry only our own content, whose HTML would grow by a quarter if escaped.
  return isPerRequest(page) ? escapeJsonForHtml(json) : json;
}
