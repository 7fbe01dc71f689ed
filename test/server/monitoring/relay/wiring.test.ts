import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from '../../../helpers/http.ts';
import { startServer, type RunningServer } from '../../../helpers/server.ts';
import { FORWARDED_HEADER_NAMES, startUpstream, type Upstream } from '../../../helpers/upstream.ts';
import { parseRaw, rawExchange } from './harness.ts';

/**
 * The relay as the built server mounts it (`node dist/server/main.js` with
 * SENTRY_DSN): the client address it forwards under each TRUST_PROXY setting,
 * the exact headers that reach Sentry, and what of the DSN reaches the browser.
 */
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream();
});
after(async () => {
  await upstream.close();
});

/** Every test but the last runs against both: the full server, and the relay alone (SERVE=relay, for a static export). */
const MODES = ['site', 'relay'] as const;

async function withServer(env: Record<string, string>, body: (server: RunningServer) => Promise<void>) {
  const server = await startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${upstream.port}/42`, ...env });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

const envelope = () => `${JSON.stringify({ dsn: `http://publickey@127.0.0.1:${upstream.port}/42` })}\n{"type":"event"}\n{"message":"x"}\n`;

/** Posts one envelope with `headers` and returns what the stand-in received for it. */
async function relayed(server: RunningServer, headers: Record<string, string>) {
  const before = upstream.received.length;
  const response = await fetch(`${server.url}/monitoring`, { method: 'POST', body: envelope(), headers });
  assert.equal(response.status, 200);
  assert.equal(upstream.received.length, before + 1);
  return upstream.received.at(-1)!;
}

for (const SERVE of MODES) {
  describe(`the client address sent upstream (SERVE=${SERVE})`, () => {
    test('without TRUST_PROXY it is the socket address, whatever the request claims', async () => {
      await withServer({ SERVE }, async (server) => {
        const request = await relayed(server, {
          'X-Forwarded-For': '6.6.6.6',
          'X-Real-IP': '6.6.6.6',
          Cookie: 'session=abc',
          Authorization: 'Bearer t',
        });
        assert.equal(request.headers['x-forwarded-for'], '127.0.0.1');
        // Only the headers the relay builds itself, and those node:http adds (host, connection).
        assert.deepEqual(Object.keys(request.headers).sort(), FORWARDED_HEADER_NAMES);
        assert.equal(request.body.toString(), envelope());
      });
    });

    test('with TRUST_PROXY=1 it is the address the proxy appended, not what the client wrote before it', async () => {
      await withServer({ SERVE, TRUST_PROXY: '1' }, async (server) => {
        assert.equal((await relayed(server, { 'X-Forwarded-For': '6.6.6.6, 203.0.113.7' })).headers['x-forwarded-for'], '203.0.113.7');
        assert.equal((await relayed(server, {})).headers['x-forwarded-for'], '127.0.0.1', 'no header: the socket');
        assert.equal(
          (await relayed(server, { 'X-Forwarded-For': 'garbage' })).headers['x-forwarded-for'],
          undefined,
          'not an address: none',
        );
      });
    });
  });

  describe(`a request whose framing hides past the header limit (SERVE=${SERVE})`, () => {
    test('is refused with 431 and its connection closed, so nothing in its body is read as a request', async () => {
      await withServer({ SERVE }, async (server) => {
        // 100 junk headers first: Node keeps 100 in req.headers, yet frames the body by the Content-Length after them.
        const junk = Array.from({ length: 100 }, (_, i) => `X-Junk-${i}: ${i}\r\n`).join('');
        const head = `POST /monitoring HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n${junk}Content-Length: 6291456\r\n\r\n`;
        const body = Array<Buffer>(96).fill(Buffer.alloc(64 * 1024, 0x61));
        const pipelined = Buffer.from('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
        // Resolves once the server closes the connection; fails after 5 s if it keeps it open.
        const { response } = await answerDespiteReset(() => rawExchange(server, head, [...body, pipelined]));
        const { status, headers } = parseRaw(response);
        assert.equal(status, 431);
        assert.equal(headers.get('connection'), 'close');
        assert.equal(response.match(/HTTP\/1\.1 /g)?.length, 1, 'one answer, then the connection closed');
        assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'still serving');
      });
    });
  });
}

describe('the DSN the browser gets', () => {
  test('is the public form: a legacy secret key in SENTRY_DSN never reaches a page', async () => {
    await withServer({ SENTRY_DSN: `http://publickey:topsecret@127.0.0.1:${upstream.port}/42` }, async (server) => {
      const html = (await get(server.url, '/en')).body;
      assert.match(html, /"dsn":"http:\/\/publickey@127\.0\.0\.1:\d+\/42"/);
      assert.doesNotMatch(html, /topsecret/);
      // Envelopes with that public form are the ones accepted.
      assert.equal((await relayed(server, {})).url, '/api/42/envelope/?sentry_version=7&sentry_key=publickey');
    });
  });
});

/**
 * The server answers as soon as it has the headers and closes, while this client is
 * still writing the body: now and then the reset that follows reaches the client before
 * it has read the answer, and TCP drops what was unread (EPIPE or ECONNRESET, nothing
 * received). Up to three tries to read the answer; a server that never sends one fails all.
 */
async function answerDespiteReset<T>(exchange: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await exchange();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= tries || (code !== 'EPIPE' && code !== 'ECONNRESET')) throw error;
    }
  }
}
