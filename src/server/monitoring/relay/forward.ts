import { isIP } from 'node:net';
import { Pool } from 'undici';
import { ingestUrl, type Dsn } from './dsn.ts';

/** What happened upstream; the middleware decides what the browser hears. */
export type Outcome =
  | { kind: 'response'; status: number; retryAfter: string | undefined; rateLimits: string | undefined; body: Buffer | null }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'timeout'; reason: string };

export type Forwarder = { forward(envelope: Buffer, clientIp: string): Promise<Outcome>; close(): Promise<void> };

type Timeouts = { connectTimeoutMs: number; headersTimeoutMs: number; bodyTimeoutMs: number; totalTimeoutMs: number };

/** The upstream answer is a short JSON; anything longer is not worth relaying, nor holding in memory. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'polysite-relay/1';

export function createForwarder(dsn: Dsn, timeouts: Timeouts, connections: number): Forwarder {
  // SECURITY: the only place bytes can go, fixed here at start-up from the configured DSN.
  const url = new URL(ingestUrl(dsn));
  const path = url.pathname + url.search;
  // A pool of our own for this one origin: keep-alive to the ingest host, and nothing
  // else in the process (the server's own Sentry SDK, fetch()) shares or configures it.
  // Pool.request never follows redirects (undici 7 has them only as an opt-in interceptor),
  // and never decompresses (undici CVE-2026-22036 was in the decompress interceptor).
  const pool = new Pool(url.origin, {
    connections,
    connect: { timeout: timeouts.connectTimeoutMs },
    headersTimeout: timeouts.headersTimeoutMs,
    bodyTimeout: timeouts.bodyTimeoutMs,
    maxResponseSize: MAX_RESPONSE_BYTES,
    // Under Relay's 5 s keep-alive, so we never write into a socket it is closing.
    keepAliveTimeout: 4_000,
  });

  let closing: Promise<void> | undefined;
  return {
    // Idempotent: shutdown paths may call it more than once.
    // A pool already destroyed (or closing) has nothing left to wait for.
    close: () => (closing ??= pool.destroyed ? Promise.resolve() : pool.close().catch(() => {})),
    async forward(envelope, clientIp) {
      // The overall deadline covers connect, headers and body together, so no mix of slow steps outlasts it.
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeouts.totalTimeoutMs);
      try {
        const response = await pool.request({
          path,
          method: 'POST',
          // SECURITY: an allowlist built from scratch; nothing of the browser's request
          // (cookies, authorization, its X-Forwarded-For chain, Host) is copied.
          headers: {
            'content-type': 'application/x-sentry-envelope',
            'content-length': String(envelope.length),
            'user-agent': USER_AGENT,
            // Sentry infers the user's IP from this; without it every event gets ours (getsentry/sentry-javascript#8664).
            // Only a real address goes out, never whatever string clientIp() was handed.
            ...(isIP(clientIp) ? { 'x-forwarded-for': unmapped(clientIp) } : {}),
          },
          body: envelope,
          signal: controller.signal,
        });
        return {
          kind: 'response',
          status: response.statusCode,
          retryAfter: single(response.headers['retry-after']),
          rateLimits: joined(response.headers['x-sentry-rate-limits']),
          body: await readCapped(response.body, response.headers),
        };
      } catch (error) {
        const reason = (error as { code?: unknown }).code;
        if (controller.signal.aborted) return { kind: 'timeout', reason: 'total timeout' };
        if (reason === 'UND_ERR_HEADERS_TIMEOUT' || reason === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', reason };
        // Refused, reset, DNS, TLS and connect timeouts alike: nobody answered, so 502.
        return { kind: 'unreachable', reason: typeof reason === 'string' ? reason : (error as Error).name };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The whole body is read, so the connection can be reused; past the cap
 * undici drops the connection (maxResponseSize) and we relay no body.
 * Encoded bodies are not relayed either: we would have to decompress them.
 */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void },
  headers: Record<string, string | string[] | undefined>,
): Promise<Buffer | null> {
  // Declared too long: drop it now rather than wait for bytes we would throw away.
  const declared = Number(single(headers['content-length']));
  if (declared > MAX_RESPONSE_BYTES) {
    body.destroy();
    return null;
  }
  const encoding = headers['content-encoding'];
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        body.destroy();
        return null;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return null;
    throw error;
  }
  if (encoding !== undefined && encoding !== 'identity') return null;
  return Buffer.concat(chunks, size);
}

/** `::ffff:203.0.113.9` (an IPv4 client on a dual-stack socket) is sent as the IPv4 address Sentry expects. */
function unmapped(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
