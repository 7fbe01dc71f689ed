import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Config } from '../config.ts';
import { createSite } from './app.ts';
import { createRelayApp } from './relay-app.ts';
import { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { ALWAYS_HEADERS } from './security-headers.ts';
import type { PreparedSite } from '../site/prepare-site.ts';

export type Serving = { server: Server; lifecycle: Lifecycle; shutdown(reason: string): Promise<void> };

type Parts = {
  config: Config;
  log: Logger;
  relay?: { path: string; middleware: import('koa').Middleware; close(): Promise<void> } | null;
} & (
  | { site: PreparedSite }
  /** `SERVE=relay`: the relay alone (relay-app.ts); `build` for /healthz and the log. */
  | { site?: undefined; relayOnly: { build: string | null } }
);

/**
 * One HTTP server with explicit limits, and its graceful shutdown: stop
 * accepting, let in-flight responses finish (streamed pages and relay forwards
 * included), close idle keep-alive sockets, and end within the grace period.
 */
export function serve(parts: Parts): Promise<Serving> {
  const { config, log, relay } = parts;
  const lifecycle = new Lifecycle();
  let handle: RequestListener;
  let build: string | null;
  if (parts.site) {
    handle = createSite({ config, site: parts.site, log, lifecycle, relay: relay ?? null }).handle;
    build = parts.site.manifest.build;
  } else {
    if (!relay) throw new Error('SERVE=relay needs the relay (SENTRY_DSN)');
    handle = createRelayApp({ config, log, lifecycle, relay, build: parts.relayOnly.build }).callback();
    build = parts.relayOnly.build;
  }
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderSize } = config.server;
  const server = createServer(
    {
      maxHeaderSize,
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(5000, headersTimeoutMs),
    },
    (req, res) => (req.rawHeaders.length > 2 * MAX_HEADERS ? refuseTooManyHeaders(req, res, log) : handle(req, res)),
  );
  // One more than we accept, so that a request with too many can be told from one with exactly enough.
  server.maxHeadersCount = MAX_HEADERS + 1;
  server.on('clientError', answerClientError(log));
  // Requests with a slow body or slow headers are cut by requestTimeout/headersTimeout;
  // a socket that sits silent beyond that is closed too.
  server.timeout = requestTimeoutMs + 5000;

  let closing: Promise<void> | null = null;
  async function shutdown(reason: string): Promise<void> {
    closing ??= (async () => {
      log.info('draining', { reason, inFlight: lifecycle.inFlight, graceMs: config.shutdownGraceMs });
      lifecycle.drain();
      // No new connections from here on. Busy sockets close after their response (Lifecycle
      // adds Connection: close); a request that arrives on an idle keep-alive socket meanwhile
      // gets a 503 that closes it, and what is left is closed once every response has left.
      // Not http.Server's close(): it also destroys every socket it deems idle, and it deems
      // idle one whose response has ended but whose bytes still wait for a slow reader (a
      // whole page sent with one end()): that response would be cut short.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.shutdownGraceMs).unref());
      const outcome = await Promise.race([lifecycle.idle().then(() => 'idle' as const), grace]);
      if (outcome === 'timeout') log.warn('grace period over, closing remaining connections', { inFlight: lifecycle.inFlight });
      server.closeAllConnections();
      await closed;
      await relay?.close();
      log.info('stopped', { reason });
    })();
    return closing;
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      log.info('listening', {
        port,
        host: config.host,
        url: `http://${shown}:${port}`,
        build,
        pid: process.pid,
        ...(parts.site ? {} : { serve: 'relay' }),
      });
      resolve({ server, lifecycle, shutdown });
    });
  });
}

/**
 * Headers a request may have. Node keeps the first `maxHeadersCount` in req.headers
 * and drops the rest without a word, yet frames the request by all of them: a
 * Content-Length past the limit sets a body no check after this can see.
 */
const MAX_HEADERS = 100;

/** The statuses Node itself answers these with; anything else the parser refuses is a 400. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Requests Node's parser refuses before Koa sees them (a raw control byte in the
 * request line, an unknown method, headers over the size limit, headers or body
 * too slow): the same short answer Node would give, with our security headers, a
 * request id and a log line, so they look and log like every other response.
 */
function answerClientError(log: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own rule (lib/_http_server.js, socketOnError): answer only on a writable
    // socket whose in-flight response, if any, has not sent its headers yet.
    const inFlight = (socket as { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
    const { id, headers, body } = refusal(status);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`,
    );
    log.info('request', { id, status, refused: error.code ?? 'unknown' });
  };
}

/**
 * More headers than we keep: 431, as for headers over the size limit, before any of
 * the app sees the request. The connection closes after the answer: whatever body the
 * hidden headers framed is not read as the next request.
 */
function refuseTooManyHeaders(req: IncomingMessage, res: ServerResponse, log: Logger): void {
  const { id, headers, body } = refusal(431);
  res.writeHead(431, Object.fromEntries(headers)).end(body);
  log.info('request', { id, method: req.method, status: 431, refused: 'too many headers' });
}

/** A short plain-text refusal that closes the connection, with our security headers and a request id. */
function refusal(status: number): { id: string; headers: (readonly [string, string])[]; body: string } {
  const body = `${status} ${STATUS_CODES[status]}\n`;
  const id = randomUUID();
  const headers = [
    ['Connection', 'close'],
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(body))],
    ['Cache-Control', 'no-store'],
    ['X-Request-Id', id],
    ...ALWAYS_HEADERS,
  ] as const;
  return { id, headers: [...headers], body };
}
