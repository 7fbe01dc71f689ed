import type { Middleware } from 'koa';
import type { Logger } from './log.ts';
import { SECURITY_HEADER_NAMES } from './security-headers.ts';
import { reportServerError } from './server-monitoring.ts';

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
 * 5xx: a localized generic page; the stack goes to the log only.
 */
/** `showStacks`: development only (NODE_ENV=development); production pages never carry one. */
export function errorsMiddleware({ log, text, showStacks = false }: { log: Logger; text: ErrorText; showStacks?: boolean }): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
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

const KEPT_HEADERS = ['Allow', 'X-Request-Id', ...SECURITY_HEADER_NAMES];

/** Errors thrown by Koa itself or its helpers (e.g. a malformed cookie) carry a status. */
function statusOf(error: Error): number {
  const status = (error as { status?: unknown; expose?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function errorPage({ lang, title, body }: { lang: string; title: string; body: string }, stack: string): string {
  return `<!DOCTYPE html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body ? `<p>${escapeHtml(body)}</p>` : ''}${stack ? `<pre>${escapeHtml(stack)}</pre>` : ''}</main></body></html>`;
}
