import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { Outcome } from './forward.ts';

// What the browser hears: the relay's own answers, and the upstream's as the SDK needs them.

/**
 * How long the SDK should back off when a client exceeds its own rate. The bucket
 * refills faster than this, but the SDK reads a 429 without these headers as "stop
 * everything for 60 s", and a short wait only brings a throttled tab straight back.
 */
export const OWN_RATE_BACKOFF_SECONDS = 30;
/**
 * How long when we shed for a reason that is not this sender's own rate (the shared
 * buffer budget, the forwards in flight): every visitor who meets that 429 goes
 * silent for as long as we ask, so ask for a moment, not half a minute. Otherwise
 * anyone able to fill the relay briefly could keep everybody's monitoring dark.
 */
export const OVERLOAD_BACKOFF_SECONDS = 2;

/**
 * The upstream answer, as the SDK needs it: the status (2xx and the 4xx it acts on
 * mirrored), and only the two headers it reads. Never Set-Cookie, HSTS, Alt-Svc or
 * Location: they would speak for our origin (getsentry/sentry-javascript#8931).
 */
export function relayOutcome(ctx: Koa.Context, outcome: Outcome): void {
  if (outcome.kind !== 'response') {
    ctx.status = outcome.kind === 'timeout' ? 504 : 502;
    ctx.body = {};
    return;
  }
  const { status } = outcome;
  // 3xx: redirects are never followed (a redirect could point anywhere).
  // 5xx and the other 4xx (401, 404...): upstream or our configuration failed,
  // not the envelope, so the browser hears 502 rather than a misleading mirror.
  const mirrored = (status >= 200 && status < 300) || [400, 403, 413, 429].includes(status);
  if (status < 300 || status >= 400) {
    // Kept on 502 too (the design table says none): a Relay 503 with Retry-After is
    // overload, and the SDK backs off only if it sees the header.
    if (outcome.retryAfter !== undefined) ctx.set('Retry-After', outcome.retryAfter);
    if (outcome.rateLimits !== undefined) ctx.set('X-Sentry-Rate-Limits', outcome.rateLimits);
  }
  ctx.status = mirrored ? status : 502;
  ctx.type = 'application/json';
  ctx.body = mirrored && outcome.body && isJson(outcome.body) ? outcome.body : '{}';
}

export function reject(ctx: Koa.Context, status: number, message: string): void {
  // A body left unread would be drained by Node to keep the socket alive, however
  // large it is: close instead. (A GET has no body to drain, so it keeps its socket.)
  if (hasUnreadBody(ctx.req)) ctx.set('Connection', 'close');
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = message;
}

/**
 * Our own 429 carries both headers the SDK reads (`Retry-After` and a matching
 * `X-Sentry-Rate-Limits` for every category), so it backs off instead of retrying.
 */
export function shed(ctx: Koa.Context, message: string, seconds: number): void {
  ctx.set('Retry-After', String(seconds));
  ctx.set('X-Sentry-Rate-Limits', `${seconds}::organization`);
  reject(ctx, 429, message);
}

function hasUnreadBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  return hasBody && !req.complete;
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
