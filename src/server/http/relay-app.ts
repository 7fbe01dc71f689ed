import type Koa from 'koa';
import type { Middleware } from 'koa';
import { cachePolicy } from './cache-policy.ts';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { createEdgeApp } from './edge-app.ts';
import { FIXED_ROUTES } from './fixed-routes.ts';
import { healthMiddleware } from './health.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';

type Parts = {
  config: Config;
  log: Logger;
  lifecycle: Lifecycle;
  relay: { path: string; middleware: Middleware };
  /** The build this process came from, for /healthz; null when there is none (the relay needs no site). */
  build: string | null;
};

/**
 * `SERVE=relay`: the monitoring relay alone, for a site exported to a static host
 * (`npm run export`), which proxies MONITORING_PATH here. The same lifecycle as the
 * full server (createApp), minus the site: access log, security headers, drain
 * gate, the one error path, the relay at its exact path, /healthz; anything else
 * is a 404. The limits, logging and shutdown are serve.ts's, as for the full server.
 */
export function createRelayApp({ config, log, lifecycle, relay, build }: Parts): Koa {
  const app = createEdgeApp({
    config,
    log,
    lifecycle,
    // No site, no messages: the relay's own callers are browsers' SDKs, which read the status only.
    errorText: () => ({ lang: 'en', title: 'Something went wrong', body: 'The relay could not take this report.' }),
  });
  const health = healthMiddleware({ lifecycle, build, never: cachePolicy(config.pageMaxAge).never });
  app.use((ctx, next) => {
    if (ctx.path === relay.path) return relay.middleware(ctx, next);
    if (ctx.path === FIXED_ROUTES.health && (ctx.method === 'GET' || ctx.method === 'HEAD')) return health(ctx, next);
    throw new HttpError(404, 'Not found');
  });
  return app;
}
