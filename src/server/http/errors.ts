import type { Context, Middleware } from 'koa';
import { escapeHtml } from '../escape-html.ts';
import type { Logger } from './log.ts';
import { SECURITY_HEADER_NAMES } from './security-headers.ts';
import { reportServerError } from '../monitoring/server-monitoring.ts';

/** An error that is meant to reach the client as a status and a short, safe message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type ErrorText = (locale: string | undefined) => { lang: string; title: string; body: string };

/**
 * The one place errors become responses. 4xx: our own short reason (never input).
 * 5xx: a localized generic page; the stack goes to the log only, and to the page
 * with `showStacks` (development only: NODE_ENV=development).
 */
export function errorsMiddleware({ log, text, showStacks = false }: { log: Logger; text: ErrorText; showStacks?: boolean }): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      if (isClientAbort(error)) return noteClientAbort(log, ctx, error);
      const status = error instanceof HttpError ? error.status : statusOf(error);
      if (status >= 500) {
        log.error('request failed', { method: ctx.method, path: ctx.path, error });
        reportServerError(error, { method: ctx.method, path: ctx.path });
      }
      if (ctx.headerSent || !ctx.writable) return;
      // Headers set for the failed response (e.g. a half-made page) must not leak into
      // the error; those that describe the request or the error itself stay.
      const kept = KEPT_HEADERS.map((name) => [name, ctx.response.get(name)] as const).filter(([, value]) => value);
      for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
      for (const [name, value] of kept) ctx.set(name, value);
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      const exposed = status < 500 ? { lang: 'en', title: `${status} ${error.message}`, body: '' } : text(ctx.state.locale);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = errorPage(exposed, showStacks && status >= 500 ? (error.stack ?? String(error)) : '');
    }
  };
}

/**
 * Koa's 'error' event: what fails after the response has started, where no
 * middleware can catch it (a streamed body's pipeline, the socket closing under
 * it). A visitor who closes the tab mid-response is the common case, and not a
 * server error: it is noted at debug with the request id, never logged as an error
 * and never reported. Anything else is a real failure the stack must show.
 */
export function appErrorListener(log: Logger): (error: Error, ctx?: Context) => void {
  return (error, ctx) => {
    if (isClientAbort(error)) return noteClientAbort(log, ctx, error);
    log.error('unhandled', { id: ctx?.state.requestId, error });
  };
}

/**
 * What Node reports when the other end of the connection went away: reset or
 * closed before the response ended (ECONNRESET, EPIPE, ECONNABORTED), or the
 * response stream closed before its body was written (ERR_STREAM_PREMATURE_CLOSE,
 * ERR_STREAM_DESTROYED). Our own failures (a render error, a timeout) carry none of these.
 */
const CLIENT_ABORT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

export function isClientAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_ABORT_CODES.has(code);
}

function noteClientAbort(log: Logger, ctx: Context | undefined, error: Error): void {
  log.debug('client went away', { id: ctx?.state.requestId, code: (error as { code?: string }).code });
}

const KEPT_HEADERS = ['Allow', 'X-Request-Id', ...SECURITY_HEADER_NAMES];

/** Errors thrown by Koa itself or its helpers (e.g. a malformed cookie) carry a status. */
function statusOf(error: Error): number {
  const status = (error as { status?: unknown; expose?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

function errorPage({ lang, title, body }: { lang: string; title: string; body: string }, stack: string): string {
  return `<!DOCTYPE html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body ? `<p>${escapeHtml(body)}</p>` : ''}${stack ? `<pre>${escapeHtml(stack)}</pre>` : ''}</main></body></html>`;
}
