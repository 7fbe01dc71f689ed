import Koa from 'koa';
import type { Config } from '../config.ts';
import { accessLog } from './access-log.ts';
import { appErrorListener, type ErrorText, errorsMiddleware } from './errors.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { securityHeaders } from './security-headers.ts';

/**
 * The outer lifecycle every app of ours shares (the site's, createApp, and the
 * relay's alone, createRelayApp), outermost first: the access log and request id,
 * security headers on every response, the drain gate, then the one error path,
 * which wraps whatever the app adds after.
 */
export function createEdgeApp({
  config,
  log,
  lifecycle,
  errorText,
  styleSources = [],
}: {
  config: Config;
  log: Logger;
  lifecycle: Lifecycle;
  errorText: ErrorText;
  /** The CSP sources of the inline styles the app's pages carry (the site's critical CSS). */
  styleSources?: readonly string[];
}): Koa {
  // TRUST_PROXY hops: only then do X-Forwarded-For/-Proto count (ctx.ip, ctx.protocol).
  const app = new Koa({ proxy: config.trustProxy > 0, maxIpsCount: config.trustProxy });
  // Errors are logged by errorsMiddleware; Koa's default handler would print them again.
  app.silent = true;
  app.on('error', appErrorListener(log));
  app.use(accessLog(log));
  app.use(securityHeaders({ trustProxy: config.trustProxy, styleSources }));
  app.use(lifecycle.middleware());
  app.use(errorsMiddleware({ log, showStacks: !config.production, text: errorText }));
  return app;
}
