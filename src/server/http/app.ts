import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import Router from '@koa/router';
import serveStatic from 'koa-static';
import { cachedAnswers } from './cached-answers.ts';
import { cachePolicy } from './cache-policy.ts';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { createEdgeApp } from './edge-app.ts';
import { styleHashSource } from './security-headers.ts';
import { feedMiddleware } from '../pages/feed-route.ts';
import { llmsMiddleware } from '../pages/llms-route.ts';
import { FIXED_ROUTES } from './fixed-routes.ts';
import { healthMiddleware } from './health.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { pageDataMiddleware } from '../pages/page-data-route.ts';
import { pageMiddleware } from '../pages/page-middleware.ts';
import { browserMonitoring } from '../pages/page-document.ts';
import { RenderCache } from './bounded-cache.ts';
import { requireAcceptableEncoding, sendStored } from './send.ts';
import type { PreparedSite } from '../site/prepare-site.ts';
import { MEMORY_BOUNDS } from '../memory-bounds.ts';

// Rendered pages and page data kept in memory at most, compressed forms included:
// about 300 pages of a large docs site with their page data and brotli forms, the
// ones visitors ask for again; the rest are rendered on demand. Twice that bought no
// throughput in the bench and cost resident memory at 10,000 pages. Not-found and
// search pages have caches of their own: their keys are the visitors', so they
// cannot push real pages out. The figures: memory-bounds.ts.

/** What the render cache keeps (all null with RENDER_CACHE=off). */
export type RenderCaches = { rendered: RenderCache | null; notFound: RenderCache | null; search: RenderCache | null };

function renderCaches(config: Config): RenderCaches {
  if (!config.renderCache) return { rendered: null, notFound: null, search: null };
  return {
    rendered: new RenderCache(MEMORY_BOUNDS.renderedBytes),
    notFound: new RenderCache(MEMORY_BOUNDS.notFoundBytes),
    search: new RenderCache(MEMORY_BOUNDS.searchBytes),
  };
}

/**
 * What the server hands each request. Two lanes answer before Koa:
 *
 * 1. serve.ts: a request with more than 100 headers gets 431 before anything else.
 * 2. cached-answers.ts: a plain GET (no query, no conditional header) of a page the
 *    render cache holds and has answered once in the client's encoding is answered
 *    at once with the status, headers and bytes Koa sent the first time. It skips
 *    every middleware of createApp below. What each of them does for it instead:
 *    - accessLog: the lane writes the same line itself (accessLine);
 *    - securityHeaders: replayed as recorded, HSTS added per request (it depends on https);
 *    - lifecycle: the lane refuses nothing, but never answers while draining, and
 *      counts the response in flight while the socket has not taken it whole;
 *    - errorsMiddleware, the relay, fixed routes, feeds: not needed (a kept page);
 *    - pageMiddleware: its headers (type, cache policy, ETag, Vary, Content-Language)
 *      are recorded by rememberAnswer, and replayed.
 *    So a header that a middleware sets after `await next()`, or one that differs per
 *    request, is missing from cached answers: test/server/http/cached-answers.test.ts
 *    compares the first answer and the cached one for every kind of page, encoding and
 *    HEAD/GET, and fails when they differ.
 *
 * Everything else goes to the app (createApp).
 */
export function createSite(parts: AppParts): { app: Koa; handle: RequestListener } {
  const caches = renderCaches(parts.config);
  const app = createApp(parts, caches);
  const toApp = app.callback();
  if (!caches.rendered) return { app, handle: toApp };
  const answered = cachedAnswers({
    rendered: caches.rendered,
    lifecycle: parts.lifecycle,
    log: parts.log,
    trustProxy: parts.config.trustProxy,
  });
  return {
    app,
    handle: (req, res) => {
      if (!answered(req, res)) toApp(req, res);
    },
  };
}

export type AppParts = {
  config: Config;
  site: PreparedSite;
  log: Logger;
  lifecycle: Lifecycle;
  /** The monitoring relay, when SENTRY_DSN is set: mounted at its exact path before anything else can touch it. */
  relay?: { path: string; middleware: Middleware } | null;
};

/**
 * The request lifecycle, top to bottom (a cached page skips it all: see createSite). Outermost: the access log and request
 * id, security headers on every response, the drain gate. Then errors wrap the
 * rest; the relay sits before any locale logic; fixed routes (assets, page data,
 * sitemap, robots, health) are matched by route, the feeds by exact path;
 * whatever is left is a page under a locale, or a redirect into one.
 */
export function createApp({ config, site, log, lifecycle, relay }: AppParts, caches: RenderCaches = renderCaches(config)): Koa {
  const app = createEdgeApp({
    config,
    log,
    lifecycle,
    styleSources: [styleHashSource(site.manifest.criticalCss)],
    errorText: (locale) => {
      const intl = site.store.intl(locale ?? config.defaultLocale);
      return { lang: intl.locale, title: intl.formatMessage({ id: 'error.title' }), body: intl.formatMessage({ id: 'error.body' }) };
    },
  });
  const policy = cachePolicy(config.pageMaxAge);
  const { rendered: cache, notFound: notFoundCache, search: searchCache } = caches;

  // Exact match on the raw path: `/monitoring/x` or `/monitoringx` are not the relay.
  const monitoringPath = config.monitoring.path;
  if (relay) {
    const { path, middleware } = relay;
    app.use((ctx, next) => (ctx.path === path ? middleware(ctx, next) : next()));
  } else {
    // Without SENTRY_DSN there is no relay: the path is a plain 404, whatever the method.
    app.use((ctx, next) => {
      if (ctx.path === monitoringPath) throw new HttpError(404, 'Not found');
      return next();
    });
  }

  // Exact, case-sensitive paths: `/HEALTHZ` or `/sitemap.xml/` are not ours, they go to the locale logic.
  const fixed = new Router({ strict: true, sensitive: true });
  const assets = serveStatic(join(config.distDir, 'client'), {
    index: false,
    // Precompressed .br/.gz written by the build.
    brotli: true,
    gzip: true,
    setHeaders: (res) => {
      res.setHeader('Vary', 'Accept-Encoding');
      // Content-hashed names never change meaning: caches may keep them for a year (koa-send keeps a Cache-Control already set).
      res.setHeader('Cache-Control', policy.asset);
    },
  });
  // koa-static passes on what it does not find: under /assets that is a 404, not a page.
  // Search indexes, messages and the head script are served from memory: the server made the
  // messages and the script, and may have made the indexes itself (content changed since the build).
  const madeAsset: Middleware = (ctx, next) => {
    const script = ctx.path === site.headScript.url;
    const body = script ? site.headScript.body : (site.messageAssets.asset(ctx.path) ?? site.search.asset(ctx.path));
    if (!body) return next();
    // The type koa-static gives the build's scripts.
    ctx.type = script ? '.js' : 'application/json; charset=utf-8';
    ctx.set('Cache-Control', policy.asset);
    sendStored(ctx, body);
  };
  fixed.get(FIXED_ROUTES.assets, madeAsset, requireAcceptableEncoding, assets, () => {
    throw new HttpError(404, 'Not found');
  });
  fixed.get(FIXED_ROUTES.pageData, pageDataMiddleware({ ...site, build: site.manifest.build, cache, searchCache, policy }));
  fixed.get(FIXED_ROUTES.health, healthMiddleware({ lifecycle, build: site.manifest.build, never: policy.never }));
  fixed.get(FIXED_ROUTES.sitemap, (ctx) => {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', policy.page);
    sendStored(ctx, site.sitemap());
  });
  fixed.get(FIXED_ROUTES.robots, (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', policy.page);
    sendStored(ctx, site.robots);
  });
  app.use(fixed.routes());
  // Each locale's Atom feed, under its blog's path (which may be localized): an exact-path lookup.
  app.use(feedMiddleware(site.feeds, policy));
  // llms.txt and each page's Markdown twin: exact paths too.
  app.use(llmsMiddleware(site.llms, policy, site.decide));

  const monitoring = browserMonitoring(config, site.manifest.build);
  app.use(
    pageMiddleware({
      ...site,
      renderTimeoutMs: config.renderTimeoutMs,
      log,
      cache,
      notFoundCache,
      searchCache,
      policy,
      monitoring,
      searchIndexes: site.search.indexes,
      messageUrls: site.messageAssets.urls,
    }),
  );
  return app;
}
