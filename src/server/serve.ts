import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from './config.ts';
import { createApp } from './app.ts';
import { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { ALWAYS_HEADERS } from './security-headers.ts';
import type { SiteRuntime } from './site-runtime.ts';

export type Serving = { server: Server; lifecycle: Lifecycle; shutdown(reason: string): Promise<void> };

type Parts = {
  config: Config;
  runtime: SiteRuntime;
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

/**
 * Requests Node's parser refuses before Koa sees them (a raw control byte in the
 * request line, an unknown method, headers over the size limit, headers or body
 * too slow): the same short answer Node would give, with our security headers, a
 * request id and a log line, so they look and log like every other response.
 */
function answerClientError(log: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing to answer on a socket the client already closed or a response under way.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
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
