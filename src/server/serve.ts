import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from './config.ts';
import { createApp } from './app.ts';
import { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { ALWAYS_HEADERS } from './security-headers.ts';
import type { PreparedSite } from './prepare-site.ts';

export type Serving = { server: Server; lifecycle: Lifecycle; shutdown(reason: string): Promise<void> };

type Parts = {
  config: Config;
  runtime: PreparedSite;
  log: Logger;
  relay?: { path: string; middleware: import('koa').Middleware; close(): Promise<void> } | null;
};

/**
 * One HTTP server with explicit limits, and its graceful shutdown: stop
 * accepting, let in-flight responses finish (streamed pages and relay forwards
 * included), close idle keep-alive sockets, and end within the grace period.
 */
export function serve({ config, runtime, log, relay }: Parts): Promise<Serving> {
  const lifecycle = new Lifecycle();
  const app = createApp({ config, runtime, log, lifecycle, relay: relay ?? null });
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderSize } = config.server;
  const server = createServer(
    {
      maxHeaderSize,
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(5000, headersTimeoutMs),
    },
    app.callback(),
  );
  server.maxHeadersCount = 100;
  server.on('clientError', answerClientError(log));
  // Requests with a slow body or slow headers are cut by requestTimeout/headersTimeout;
  // a socket that sits silent beyond that is closed too.
  server.timeout = requestTimeoutMs + 5000;

  let closing: Promise<void> | null = null;
  async function shutdown(reason: string): Promise<void> {
    closing ??= (async () => {
      log.info('draining', { reason, inFlight: lifecycle.inFlight, graceMs: config.shutdownGraceMs });
      lifecycle.drain();
      // No new connections from here on; idle keep-alive sockets are closed now,
      // busy ones after their response (Lifecycle adds Connection: close).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
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
      log.info('listening', { port, host: config.host, url: `http://${shown}:${port}`, build: runtime.manifest.build, pid: process.pid });
      resolve({ server, lifecycle, shutdown });
    });
  });
}

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
    const body = `${status} ${STATUS_CODES[status]}\n`;
    const id = randomUUID();
    const headers = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Connection: close',
      'Content-Type: text/plain; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      `X-Request-Id: ${id}`,
      ...ALWAYS_HEADERS.map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
    log.info('request', { id, status, refused: error.code ?? 'unknown' });
  };
}
