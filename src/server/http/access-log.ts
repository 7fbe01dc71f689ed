import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
    const id = requestIdOf(ctx.get('X-Request-Id'));
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    logWhenClosed(log, ctx.req, ctx.res, { id, path: ctx.path });
    return next();
  };
}

/** The request's id: the one it came with, if short and plain, or a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Called as the request arrives, writes its line once its response is finished or
 * abandoned. Below the info level it does nothing: a listener per response only to
 * drop its line cost a cached answer 2-6 % of its req per CPU-s in paired bench turns.
 */
export function logWhenClosed(log: Logger, req: IncomingMessage, res: ServerResponse, request: { id: string; path: string }): void {
  const line = accessLine(log, req, res, request);
  // 'close' comes once per response: `on`, without the wrapper `once` adds.
  if (line) res.on('close', () => line(res.writableFinished));
}

/**
 * Called as the request arrives: what writes its line, once told whether the whole
 * response was written (`aborted` in the line when not), or null below the info level.
 * cached-answers.ts calls it right after its one write, not from a 'close' listener.
 */
export function accessLine(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  { id, path }: { id: string; path: string },
): ((finished: boolean) => void) | null {
  if (!log.enabled('info')) return null;
  const started = performance.now();
  const socket = req.socket;
  const bytesBefore = socket.bytesWritten;
  return (finished) => {
    const ms = Math.round((performance.now() - started) * 1000) / 1000;
    const shortPath = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    // Made as text (log.ts's `json`): the id is well formed or ours (no character JSON
    // escapes), the status and the figures are numbers, the agent one of three words;
    // the method and the path are escaped.
    const fields =
      `{"id":"${id}","method":${JSON.stringify(req.method)},"path":${JSON.stringify(shortPath)},"status":${res.statusCode},` +
      `"ms":${ms},"bytes":${socket.bytesWritten - bytesBefore},"agent":"${agentClass(req.headers['user-agent'] ?? '')}"` +
      (finished ? '}' : ',"aborted":true}');
    log.json('info', 'request', fields);
  };
}

function agentClass(userAgent: string): 'bot' | 'browser' | 'other' {
  if (isBot(userAgent)) return 'bot';
  return /Mozilla\//.test(userAgent) ? 'browser' : 'other';
}
