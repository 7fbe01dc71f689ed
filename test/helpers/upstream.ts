import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every header a forwarded envelope carries: the relay's own four, and node:http's host and connection. */
export const FORWARDED_HEADER_NAMES = ['connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-forwarded-for'];

/** One request as the stand-in received it: the raw bytes, nothing decoded. */
export type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };

/**
 * What the stand-in answers. `hang`: accepts the request and never answers;
 * `stall`: sends 200 headers and the first byte of a longer body, then nothing;
 * `declare-huge-then-stall`: the same with a Content-Length of 200 MiB.
 */
export type Reply =
  | { status?: number; headers?: Record<string, string | string[]>; body?: string | Buffer }
  | 'hang'
  | 'stall'
  | 'declare-huge-then-stall';

export type Upstream = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request that arrived, in order, recorded once its body has ended. */
  received: Received[];
  /** TCP connections accepted so far: 0 proves nothing was even dialled. */
  connections(): number;
  close(): Promise<void>;
};

/**
 * A loopback stand-in for Sentry (or anything else upstream) that records
 * every request and answers with `reply(request)`, by default 200 `{"id":…}`.
 */
export async function startUpstream(reply: (request: Received) => Reply | Promise<Reply> = () => ({})): Promise<Upstream> {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(request);
      const answer = await reply(request);
      if (answer === 'hang') return; // closeAllConnections() ends it
      if (answer === 'stall') return void res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' }).write('{');
      if (answer === 'declare-huge-then-stall')
        return void res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(200 * 1024 * 1024) }).write('{');
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{"id":"0123456789abcdef0123456789abcdef"}');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
