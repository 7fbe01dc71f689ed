import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import Koa from 'koa';
import { createEnvelope, serializeEnvelope, type Envelope } from '@sentry/core';
import { createRelay, type Relay, type RelayOptions } from '../../../../src/server/monitoring/relay/index.ts';
import { parseDsn } from '../../../../src/server/monitoring/relay/dsn.ts';
import type { Logger } from '../../../../src/server/http/log.ts';
import { loadConfig } from '../../../../src/server/config.ts';
import { Lifecycle } from '../../../../src/server/http/lifecycle.ts';
import { createRelayApp } from '../../../../src/server/http/relay-app.ts';
import { startUpstream, type Reply, type Received, type Upstream } from '../../../helpers/upstream.ts';

export const PATH = '/monitoring';
/** What the app resolved as the client's address (a documentation address: a string, never dialled). */
export const CLIENT_IP = '203.0.113.7';

export const dsnFor = (upstream: Pick<Upstream, 'port'>, { key = 'abc123', project = '42' } = {}) =>
  `http://${key}@127.0.0.1:${upstream.port}/${project}`;

type Item = [Record<string, unknown>, string | Uint8Array | Record<string, unknown>];

/**
 * An envelope as the browser SDK builds it, with the SDK's own serializer
 * (string body, or bytes once an item is binary).
 */
export function makeEnvelope({
  dsn,
  header = {},
  items,
}: {
  dsn?: unknown;
  header?: Record<string, unknown>;
  items?: Item[];
} = {}): Buffer {
  const headers = {
    ...(dsn === undefined ? {} : { dsn }),
    sent_at: '2026-01-01T00:00:00.000Z',
    sdk: { name: 'sentry.javascript.browser', version: '11.12.0' },
    ...header,
  };
  const defaultItems: Item[] = [[{ type: 'event' }, { event_id: '0123456789abcdef0123456789abcdef', message: 'envelope-secret-marker' }]];
  const serialized = serializeEnvelope(createEnvelope(headers as Envelope[0], (items ?? defaultItems) as Envelope[1]));
  return typeof serialized === 'string' ? Buffer.from(serialized, 'utf8') : Buffer.from(serialized);
}

export type RunningRelay = { url: string; port: number; relay: Relay; logs: string[]; close(): Promise<void> };

/**
 * Where startRelay mounts the relay: `bare`, as the site's app mounts it (exact
 * path, ahead of everything; anything else is 404), or `relay-app`, in the app of
 * `SERVE=relay` (src/server/http/relay-app.ts), for relay-serve.test.ts.
 */
export const harness: { mount: 'bare' | 'relay-app' } = { mount: 'bare' };

export async function startRelay(upstream: Pick<Upstream, 'port'>, options: Partial<RelayOptions> = {}): Promise<RunningRelay> {
  const logs: string[] = [];
  const record = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void logs.push(JSON.stringify({ level, msg, ...fields }));
  const log: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    json: (level, msg, fields) => record(level)(msg, JSON.parse(fields)),
    enabled: () => true,
  };
  const relay = createRelay({ dsn: parseDsn(dsnFor(upstream)), maxBytes: 64 * 1024, clientIp: () => CLIENT_IP, log, ...options });
  let app: Koa;
  if (harness.mount === 'relay-app') {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SERVE: 'relay', SENTRY_DSN: dsnFor(upstream) });
    app = createRelayApp({ config, log, lifecycle: new Lifecycle(), relay: { path: PATH, middleware: relay.middleware }, build: null });
  } else {
    app = new Koa();
    app.use((ctx, next) => (ctx.path === PATH ? relay.middleware(ctx, next) : next()));
    app.use((ctx) => {
      ctx.status = 404;
    });
  }
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    relay,
    logs,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await relay.close();
    },
  };
}

/**
 * A loopback stand-in for Sentry answering with `reply`, the relay in front of it
 * with `options`, and a valid envelope for that relay; both stop after the test.
 */
export async function setup(
  t: TestContext,
  { reply, options }: { reply?: (request: Received) => Reply | Promise<Reply>; options?: Partial<RelayOptions> } = {},
) {
  const upstream = await startUpstream(reply);
  const relay = await startRelay(upstream, options);
  t.after(async () => {
    await relay.close();
    await upstream.close();
  });
  return { upstream, relay, envelope: makeEnvelope({ dsn: dsnFor(upstream) }) };
}

export type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** A real HTTP request, no keep-alive, so nothing is left open after the test. */
export function post(
  target: RunningRelay,
  body: Buffer | string,
  headers: Record<string, string> = {},
  { method = 'POST', path = PATH, localAddress = '127.0.0.1' } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method,
        localAddress,
        agent: false,
        headers: { 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Writes `head` and then `chunks` one per tick on a raw socket, stops writing as soon
 * as any answer arrives, and resolves with everything the server sent until it closed.
 * For requests node:http will not send: a lying Content-Length, a body cut short.
 */
export function rawExchange(
  target: Pick<RunningRelay, 'port'>,
  head: string,
  chunks: Buffer[] = [],
): Promise<{ response: string; written: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, '127.0.0.1');
    let response = '';
    let written = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in 5 s; got: ${JSON.stringify(response)}`));
    }, 5_000);
    const writeNext = (index: number) => {
      if (response || socket.destroyed || index >= chunks.length) return;
      written += chunks[index]!.length;
      socket.write(chunks[index]!, () => setImmediate(() => writeNext(index + 1)));
    };
    socket.on('connect', () => socket.write(head, () => writeNext(0)));
    socket.on('data', (data) => (response += data.toString('latin1')));
    const done = () => {
      clearTimeout(timer);
      resolve({ response, written });
    };
    socket.on('end', () => {
      socket.destroy();
      done();
    });
    // After an early answer the server may reset the socket we are still writing into.
    socket.on('error', (error) => {
      if (response) return done();
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * An upload that sends its headers (declaring `declared` bytes) and the first `sent`
 * bytes of its body, then nothing: what a client holding a slot open does; or, with
 * `dripEveryMs`, one more byte that often, as a client trickling its body does to stay
 * under the idle timeout. Connects from `localAddress` (any 127.x address is this
 * machine), so tests can play several clients. `answer` is what the server sent before
 * it closed (`closed` says whether it has); `close()` ends it.
 */
export async function heldUpload(
  target: RunningRelay,
  {
    declared,
    sent = Buffer.alloc(0),
    localAddress = '127.0.0.1',
    dripEveryMs,
  }: { declared: number; sent?: Buffer; localAddress?: string; dripEveryMs?: number },
): Promise<{ answer: Promise<string>; closed(): boolean; close(): void }> {
  const socket = connect({ port: target.port, host: '127.0.0.1', localAddress });
  let response = '';
  let closed = false;
  socket.on('data', (data) => (response += data.toString('latin1')));
  socket.on('error', () => {});
  let drip: NodeJS.Timeout | undefined;
  const answer = new Promise<string>((resolve) =>
    socket.on('close', () => {
      closed = true;
      clearInterval(drip);
      resolve(response);
    }),
  );
  const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${declared}\r\n\r\n`;
  await new Promise<void>((resolve) =>
    socket.once('connect', () => socket.write(Buffer.concat([Buffer.from(head), sent]), () => resolve())),
  );
  let written = sent.length;
  if (dripEveryMs !== undefined) {
    drip = setInterval(() => {
      // One byte short of the declared length at most: the body never completes.
      if (response || socket.destroyed || written >= declared - 1) return;
      written += 1;
      socket.write('a');
    }, dripEveryMs);
  }
  return { answer, closed: () => closed, close: () => socket.destroy() };
}

/** The status line and headers of a raw HTTP response. */
export function parseRaw(response: string): { status: number; headers: Map<string, string> } {
  const [head = ''] = response.split('\r\n\r\n', 1);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const),
  );
  return { status: Number(statusLine.split(' ')[1]), headers };
}
