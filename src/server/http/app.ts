import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import serve from 'koa-static';
import { accessLog } from './access-log.ts';
import { cachedAnswers } from './cached-answers.ts';
import { cachePolicy } from './cache-policy.ts';
import type { Config } from '../config.ts';
import { appErrorListener, errorsMiddleware, HttpError } from './errors.ts';
import { feedMiddleware } from '../pages/feed-route.ts';
import { FIXED_ROUTES } from './fixed-routes.ts';
import { healthMiddleware } from './health.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { pageDataMiddleware } from '../pages/page-data-route.ts';
import { pagesMiddleware } from '../pages/page-middleware.ts';
import { browserMonitoring } from '../pages/page-document.ts';
import { RenderCache } from './bounded-cache.ts';
import { sendStored } from './send.ts';
import { securityHeaders } from './security-headers.ts';
import type { PreparedSite } from '../site/prepare-site.ts';

/**
 * Rendered pages and page data kept in memory at most, compressed forms included
 * (the default site needs about 3 MB). 16 MB hold about 300 pages of a large docs
 * site with their page data and brotli forms (about 60 KB a page), the ones visitors
 * ask for again; the rest are rendered on demand. Twice that bought no throughput in
 * the bench and cost about 20 MB of resident memory at 10,000 pages.
 */
const RENDER_CACHE_BYTES = 16 * 1024 * 1024;
/** Not-found pages kept (by requested path; the keys are the visitors', so the bytes are bounded small). */
const NOT_FOUND_CACHE_BYTES = 4 * 1024 * 1024;
/** Search pages kept (by query; the same bound as not-found pages, for the same reason). */
const SEARCH_CACHE_BYTES = 4 * 1024 * 1024;

/** What the render cache keeps (all null with RENDER_CACHE=off). */
export type RenderCaches = { pages: RenderCache | null; notFound: RenderCache | null; search: RenderCache | null };

function renderCaches(config: Config): RenderCaches {
  if (!config.renderCache) return { pages: null, notFound: null, search: null };
  return {
    pages: new RenderCache(RENDER_CACHE_BYTES),
    notFound: new RenderCache(NOT_FOUND_CACHE_BYTES),
    search: new RenderCache(SEARCH_CACHE_BYTES),
  };
}

/**
 * What the server hands each request: pages the render cache holds and has
 * answered once are answered again straight away (cached-answers.ts); the rest
 * goes to the app.
 */
export function createSite(parts: AppParts): { app: Koa; handle: RequestListener } {
  const caches = renderCaches(parts.config);
  const app = createApp(parts, caches);
  const toApp = app.callback();
  if (!caches.pages) return { app, handle: toApp };
  const answered = cachedAnswers({ pages: caches.pages, lifecycle: parts.lifecycle, log: parts.log, trustProxy: parts.config.trustProxy });
  return {
    app,
    handle: (req, res) => {
      if (!answered(req, res)) toApp(req, res);
    },
  };
}

export type AppParts = {
  config: Config;
  runtime: PreparedSite;
  log: Logger;
  lifecycle: Lifecycle;
  /** The monitoring relay, when SENTRY_DSN is set: mounted at its exact path before anything else can touch it. */
  relay?: { path: string; middleware: Middleware } | null;
};

/**
 * The request lifecycle, top to bottom. Outermost: the access log and request
 * id, security headers on every response, the drain gate. Then errors wrap the
 * rest; the relay sits before any locale logic; fixed routes (assets, page data,
 * sitemap, robots, health) are matched by route, the feeds by exact path;
 * whatever is left is a page under a locale, or a redirect into one.
 */
export function createApp({ config, runtime, log, lifecycle, relay }: AppParts, caches: RenderCaches = renderCaches(config)): Koa {
  // TRUST_PROXY hops: only then do X-Forwarded-For/-Proto count (ctx.ip, ctx.protocol).
  const app = new Koa({ proxy: config.trustProxy > 0, maxIpsCount: config.trustProxy });
  // Errors are logged by errorsMiddleware; Koa's default handler would print them again.
  app.silent = true;
  app.on('error', appErrorListener(log));

  const policy = cachePolicy(config.pageMaxAge);
  const { pages: cache, notFound: notFoundCache, search: searchCache } = caches;

  app.use(accessLog(log));
  app.use(securityHeaders({ trustProxy: config.trustProxy }));
  app.use(lifecycle.middleware());
  app.use(
    errorsMiddleware({
      log,
      showStacks: !config.production,
      text: (locale) => {
        const intl = runtime.store.intl(locale ?? config.defaultLocale);
        return { lang: intl.locale, title: intl.formatMessage({ id: 'error.title' }), body: intl.formatMessage({ id: 'error.body' }) };
      },
    }),
  );

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
  const assets = serve(join(config.distDir, 'client'), {
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
  // Search indexes and messages are served from memory: the server made the messages, and may
  // have made the indexes itself (content changed since the build).
  const madeAsset: Middleware = (ctx, next) => {
    const body = runtime.messageAssets.asset(ctx.path) ?? runtime.search.asset(ctx.path);
    if (!body) return next();
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', policy.asset);
    sendStored(ctx, body);
  };
  fixed.get(FIXED_ROUTES.assets, madeAsset, assets, () => {
    throw new HttpError(404, 'Not found');
  });
  fixed.get(FIXED_ROUTES.pageData, pageDataMiddleware({ ...runtime, build: runtime.manifest.build, cache, searchCache, policy }));
  fixed.get(FIXED_ROUTES.health, healthMiddleware({ lifecycle, build: runtime.manifest.build, never: policy.never }));
  fixed.get(FIXED_ROUTES.sitemap, (ctx) => {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', policy.page);
    sendStored(ctx, runtime.sitemap());
  });
  fixed.get(FIXED_ROUTES.robots, (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', policy.page);
    sendStored(ctx, runtime.robots);
  });
  app.use(fixed.routes());
  // Each locale's Atom feed, under its blog's path (which may be localized): an exact-path lookup.
  app.use(feedMiddleware(runtime.feeds, policy));

  const monitoring = browserMonitoring(config, runtime.manifest.build);
  app.use(
    pagesMiddleware({
      ...runtime,
      renderTimeoutMs: config.renderTimeoutMs,
      log,
      cache,
      notFoundCache,
      searchCache,
      policy,
      monitoring,
      searchIndexes: runtime.search.indexes,
      messageUrls: runtime.messageAssets.urls,
    }),
  );
  return app;
}
