import { isIP } from 'node:net';
import type Koa from 'koa';
import type { Logger } from '../../http/log.ts';
import { readBody } from './body.ts';
import { createBudget, type Refusal } from './budget.ts';
import { dsnToString, type Dsn } from './dsn.ts';
import { readEnvelopeDsn } from './envelope.ts';
import { createForwarder, type Outcome } from './forward.ts';
import { clientKey, createRateLimiter } from './rate-limit.ts';
import { OVERLOAD_BACKOFF_SECONDS, OWN_RATE_BACKOFF_SECONDS, reject, relayOutcome, shed } from './answers.ts';

export type RelayOptions = {
  dsn: Dsn;
  maxBytes: number;
  clientIp: (ctx: Koa.Context) => string;
  log: Logger;
  readTimeoutMs?: number;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  totalTimeoutMs?: number;
  ratePerMinute?: number;
  burst?: number;
  /** Clients the rate limiter remembers at most (about 100 bytes each). */
  maxClients?: number;
  maxInFlight?: number;
  maxBufferedBytes?: number;
  /** The share of maxBufferedBytes one client address may hold (never below maxBytes). */
  perClientBufferedBytes?: number;
  /** A body still arriving this long after its request began is slow: when the budget is spent, the oldest slow body is cut to make room. */
  slowBodyAfterMs?: number;
};

export type Relay = {
  middleware: Koa.Middleware;
  close(): Promise<void>;
  /** Forwards waiting for Sentry's answer. */
  inFlight(): number;
  /** Request body bytes held in memory right now. */
  bufferedBytes(): number;
};

export const RELAY_DEFAULTS = {
  readTimeoutMs: 10_000,
  idleTimeoutMs: 1_500,
  // Sentry's Relay gives its own upstream 3 s to connect and 5 s to answer: we wait no longer.
  connectTimeoutMs: 3_000,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 10_000,
  totalTimeoutMs: 10_000,
  // Room for many tabs behind one address: a tab with Replay flushes every ~5 s, and an office NAT is one IP.
  ratePerMinute: 300,
  burst: 100,
  maxClients: 10_000,
  maxInFlight: 64,
  maxBufferedBytes: 64 * 1024 * 1024,
  perClientBufferedBytes: 8 * 1024 * 1024,
  // A browser's envelope is in within a moment; what is still arriving after a second is a
  // large upload on a slow line or a client holding memory: under pressure it gives way.
  slowBodyAfterMs: 1_000,
} as const;

/** At most one warning per this long while the budget stays spent, with the count of refusals in between. */
const BUDGET_WARNING_INTERVAL_MS = 10_000;

// What the browser SDK sends (text/plain for a string body, no type for a binary one), the
// envelope's own type, and octet-stream, as Sentry's ingest tolerates. A sanity filter, not
// CSRF defence: an HTML form can post text/plain too.
const ACCEPTED_TYPES = new Set(['', 'text/plain', 'application/x-sentry-envelope', 'application/octet-stream']);

/**
 * The same-origin Sentry tunnel (`POST <MONITORING_PATH>`): the browser SDK posts
 * envelopes here and we pass them, byte for byte, to the one configured project.
 * A trust boundary, so the handler is a ladder of guard clauses, cheapest first,
 * each with its own status; nothing reaches upstream unless every rung passes.
 * The protocol facts it relies on, with their sources, and the reasons for each
 * rung and number: docs/relay.md.
 */
export function createRelay(options: RelayOptions): Relay {
  const settings = { ...RELAY_DEFAULTS, ...withoutUndefined(options) };
  const { maxBytes, clientIp, log } = settings;
  const allowedDsn = dsnToString(settings.dsn);
  const project = settings.dsn.projectId;
  const forwarder = createForwarder(settings.dsn, settings, settings.maxInFlight);
  const limiter = createRateLimiter(settings);
  const budget = createBudget({
    maxBytes: settings.maxBufferedBytes,
    // One full-size envelope always fits in a share, however small the share is set.
    perClientBytes: Math.min(settings.maxBufferedBytes, Math.max(maxBytes, settings.perClientBufferedBytes)),
    slowAfterMs: settings.slowBodyAfterMs,
  });
  let inFlight = 0;

  /**
   * SECURITY: the address limits are kept under. `clientIp` may have read it from
   * X-Forwarded-For, which says whatever the client wrote when no trusted proxy
   * appended it: a value that is not an address (a new 15,000-character string per
   * request) would get a fresh bucket each time, so it counts as the socket's address.
   */
  const clientAddress = (ctx: Koa.Context): string => {
    const claimed = clientIp(ctx);
    return isIP(claimed) ? claimed : (ctx.req.socket.remoteAddress ?? '');
  };

  // While the budget is spent, envelopes are refused or slow uploads cut to make room:
  // an operator needs to see it, once per interval rather than once per envelope.
  let lastBudgetWarning = Number.NEGATIVE_INFINITY;
  let refusedSinceWarning = 0;
  let cutSinceWarning = 0;
  const noteBudgetSpent = (ctx: Koa.Context, what: 'refused' | 'cut') => {
    if (what === 'refused') refusedSinceWarning += 1;
    else cutSinceWarning += 1;
    const now = Date.now();
    if (now - lastBudgetWarning < BUDGET_WARNING_INTERVAL_MS) return;
    log.warn('relay buffer budget spent', {
      id: ctx.state.requestId,
      usedBytes: budget.used(),
      maxBytes: settings.maxBufferedBytes,
      refused: refusedSinceWarning,
      cutSlow: cutSinceWarning,
    });
    lastBudgetWarning = now;
    refusedSinceWarning = 0;
    cutSinceWarning = 0;
  };

  const relay = async (ctx: Koa.Context) => {
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return reject(ctx, 405, 'Method not allowed');
    }
    // SECURITY: the browser transport never compresses the body, so an encoded body
    // is not from our SDK, and decoding it would open a decompression bomb.
    const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') return reject(ctx, 415, 'Content-Encoding not supported');
    const type = ctx.get('Content-Type').split(';', 1)[0]!.trim().toLowerCase();
    if (!ACCEPTED_TYPES.has(type)) return reject(ctx, 415, 'Content-Type not supported');
    // SECURITY: refuse a declared oversize body before reading a byte of it, so it costs nothing.
    // A missing Content-Length is fine (chunked); the read below counts bytes instead.
    // (Node's parser has already refused a malformed or conflicting Content-Length.)
    const declared = ctx.req.headers['content-length'];
    const declaredBytes = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
    if (declaredBytes !== undefined && declaredBytes > maxBytes) return reject(ctx, 413, 'Envelope too large');
    // SECURITY: shed load before reading bodies: per client first, so one client cannot crowd out
    // the rest, then for everyone, so Sentry never has more than maxInFlight of ours at once.
    const client = clientKey(clientAddress(ctx));
    if (!limiter.take(client)) return shed(ctx, 'Too many requests', OWN_RATE_BACKOFF_SECONDS);
    if (inFlight >= settings.maxInFlight) return shed(ctx, 'Too many requests in flight', OVERLOAD_BACKOFF_SECONDS);

    // SECURITY: the shared memory budget, so slow uploads together cannot pin more than it; taken
    // as bytes arrive, at most a share per client, and taken back from a slow body under pressure.
    const cut = new AbortController();
    const lease = budget.lease(client, () => cut.abort());
    let refusal = null as Refusal | null;
    try {
      const read = await readBody(ctx.req, {
        maxBytes,
        timeoutMs: settings.readTimeoutMs,
        idleTimeoutMs: settings.idleTimeoutMs,
        reserve: (total) => {
          refusal = lease.reserve(total);
          return refusal === null;
        },
        cut: cut.signal,
      });
      switch (read.kind) {
        case 'tooLarge':
          return reject(ctx, 413, 'Envelope too large');
        case 'timeout':
          return reject(ctx, 408, 'Request body timeout');
        case 'overBudget':
          if (refusal === 'budget') noteBudgetSpent(ctx, 'refused');
          return shed(ctx, 'Server busy', OVERLOAD_BACKOFF_SECONDS);
        case 'cut':
          // Its room went to a newcomer: this sender may be slow for no fault of its own, so the short back-off.
          noteBudgetSpent(ctx, 'cut');
          return shed(ctx, 'Server busy', OVERLOAD_BACKOFF_SECONDS);
        case 'aborted':
          // Nobody is listening any more; Koa skips writing to a closed socket.
          return reject(ctx, 400, 'Request aborted');
      }
      const bytes = read.bytes;
      lease.settle();

      const header = readEnvelopeDsn(bytes);
      if (header.kind === 'malformed') return reject(ctx, 400, header.reason);
      // SECURITY: the exact string the SDK derives from our own DSN, key and project included
      // (sentry-javascript tunnel.ts). Host-only checks let anyone use the tunnel for any
      // project on that host (getsentry/sentry#77891). Checked before any connection opens.
      if (header.dsn !== allowedDsn) {
        log.warn('relay refused a foreign dsn', { id: ctx.state.requestId, status: 403, bytes: bytes.length });
        return reject(ctx, 403, 'DSN not allowed');
      }
      // SECURITY: checked again now, since others may have started forwarding while this body arrived.
      if (inFlight >= settings.maxInFlight) return shed(ctx, 'Too many requests in flight', OVERLOAD_BACKOFF_SECONDS);

      inFlight += 1;
      // Not aborted if the browser goes away: envelopes sent with `keepalive` while a page
      // unloads are exactly the ones whose sender never reads the answer.
      let outcome: Outcome;
      try {
        outcome = await forwarder.forward(bytes, clientIp(ctx));
      } finally {
        inFlight -= 1;
      }
      relayOutcome(ctx, outcome);
      // The access log already has a line per request; these add what only the relay knows.
      // Never the body (it carries visitors' data), the DSN key or the client address.
      const fields = { id: ctx.state.requestId, status: ctx.status, project, bytes: bytes.length };
      // Sentry refusing our envelopes (a revoked key, a deleted project) must show at the default level.
      if (outcome.kind === 'response' && outcome.status < 300) log.debug('relay forwarded', { ...fields, upstream: outcome.status });
      else if (outcome.kind === 'response') log.warn('relay upstream refused', { ...fields, upstream: outcome.status });
      else log.warn('relay upstream failed', { ...fields, reason: outcome.reason });
    } finally {
      lease.release();
    }
  };

  return {
    inFlight: () => inFlight,
    bufferedBytes: () => budget.used(),
    close: () => forwarder.close(),
    async middleware(ctx) {
      // Whatever the answer, it is about this one envelope: never cache it.
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      try {
        await relay(ctx);
      } catch (error) {
        // Answered here rather than thrown: the site's error middleware would turn it into an
        // HTML page for people, and the SDK only needs a status.
        log.error('relay failed', { error: error instanceof Error ? error : String(error) });
        reject(ctx, 500, 'Relay error');
      }
    },
  };
}

function withoutUndefined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}
