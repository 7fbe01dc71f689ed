import { join } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import serve from 'koa-static';
import type { Config } from './config.ts';
import { errorsMiddleware } from './errors.ts';
import type { Logger } from './log.ts';
import { pagesMiddleware } from './pages.ts';
import { dataMiddleware } from './data.ts';
import type { SiteRuntime } from './site-runtime.ts';

/**
 * The request lifecycle, top to bottom: errors wrap everything; fixed routes
 * (assets, page data, sitemap, robots, health) are matched first by route; whatever
 * is left is a page under a locale, or a redirect into one.
 */
export function createApp(config: Config, runtime: SiteRuntime, log: Logger): Koa {
  const app = new Koa();
  // Errors are logged by errorsMiddleware; Koa's default handler would print them again.
  app.silent = true;
  app.on('error', (error: Error) => log.error('unhandled', { error }));

  app.use(
    errorsMiddleware({
      log,
      text: (locale) => {
        const intl = runtime.store.intl(locale ?? config.defaultLocale);
        return {
          lang: intl.locale,
          title: intl.formatMessage({ id: 'error.title' }),
          body: intl.formatMessage({ id: 'error.body' }),
        };
      },
    }),
  );

  const fixed = new Router();
  // Content-hashed files: a name never changes meaning, so caches may keep it for a year.
  const assets = serve(join(config.distDir, 'client'), {
    index: false,
    maxage: 365 * 24 * 60 * 60 * 1000,
    immutable: true,
  });
  fixed.get('/assets/{*file}', assets);
  fixed.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', build: runtime.manifest.build };
  });
  fixed.get('/sitemap.xml', (ctx) => {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.body = runtime.sitemap;
  });
  fixed.get('/robots.txt', (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = runtime.robots;
  });
  fixed.get('/_data/{*rest}', dataMiddleware({ ...runtime, build: runtime.manifest.build }));
  app.use(fixed.routes());

  app.use(pagesMiddleware({ ...runtime, renderTimeoutMs: config.renderTimeoutMs, log }));
  return app;
}
