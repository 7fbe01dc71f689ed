import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from './log.ts';
import { isBot } from './bots.ts';

// An incoming id is kept only if it is short and plain (it ends up in our logs and headers).
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * One JSON line per request when the response is finished: time, request id,
 * method, path, status, duration, bytes, user agent class. Paths are logged
 * without the query string (it may carry personal data).
 */
export function accessLog(log: Logger): Middleware {
  // Not async: nothing here waits for the response, the 'close' listener does.
  return (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const id = WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const socket = ctx.req.socket;
    const bytesBefore = socket.bytesWritten;
    ctx.res.once('close', () => {
      log.info('request', {
        id,
        method: ctx.method,
        path: ctx.path.length > 200 ? `${ctx.path.slice(0, 200)}…` : ctx.path,
        status: ctx.res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: socket.bytesWritten - bytesBefore,
        agent: agentClass(ctx.get('User-Agent')),
        ...(ctx.res.writableFinished ? {} : { aborted: true }),
      });
    });
    return next();
  };
}

function agentClass(userAgent: string): 'bot' | 'browser' | 'other' {
  if (isBot(userAgent)) return 'bot';
  return /Mozilla\//.test(userAgent) ? 'browser' : 'other';
}
