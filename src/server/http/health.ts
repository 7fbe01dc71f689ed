import type { Middleware } from 'koa';
import type { Lifecycle } from './lifecycle.ts';

/** `/healthz`: 200 with the build while serving, 503 while draining; never cached. Mounted by app.ts and relay-app.ts. */
export function healthMiddleware({ lifecycle, build, never }: { lifecycle: Lifecycle; build: string | null; never: string }): Middleware {
  return (ctx) => {
    ctx.set('Cache-Control', never);
    ctx.status = lifecycle.draining ? 503 : 200;
    ctx.body = { status: lifecycle.draining ? 'draining' : 'ok', build };
  };
}
