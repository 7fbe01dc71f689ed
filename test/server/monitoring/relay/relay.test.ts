import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvelope } from '@sentry/core';
import type { Reply, Upstream } from '../../../helpers/upstream.ts';
import { waitFor } from '../../../helpers/wait.ts';
import { PATH, dsnFor, heldUpload, makeEnvelope, parseRaw, post, rawExchange, setup } from './harness.ts';
import { RELAY_DEFAULTS } from '../../../../src/server/monitoring/relay/index.ts';

/**
 * The relay's status table, one test per row, against a real loopback stand-in
 * for Sentry. Every refusal also proves that nothing reached the stand-in.
 */
function assertNothingUpstream(upstream: Upstream) {
  assert.equal(upstream.received.length, 0, 'nothing reached the upstream');
}

const TIMEOUT = { timeout: 10_000 };

describe('forwarding (upstream 2xx)', TIMEOUT, () => {
  test('should forward a valid envelope to the ingest URL fixed by the DSN and answer with the upstream status', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    const answer = await post(relay, envelope, { 'Content-Type': 'text/plain;charset=UTF-8' });

    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body.toString()), { id: '0123456789abcdef0123456789abcdef' });
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(upstream.received.length, 1);
    const [request] = upstream.received;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.url, '/api/42/envelope/?sentry_version=7&sentry_key=abc123');
    assert.equal(request!.headers['content-type'], 'application/x-sentry-envelope');
    assert.equal(request!.headers['content-length'], String(envelope.length));
    assert.deepEqual(request!.body, envelope);
    const [header, items] = parseEnvelope(request!.body);
    assert.equal(header.dsn, dsnFor(upstream));
    assert.deepEqual(
      items.map(([item]) => item.type),
      ['event'],
    );
  });

  test('should mirror other 2xx statuses', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => ({ status: 202, body: '{"id":"x"}' }) });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 202);
    assert.equal(answer.body.toString(), '{"id":"x"}');
  });

  for (const type of [undefined, 'text/plain;charset=UTF-8', 'application/x-sentry-envelope', 'application/octet-stream', 'TEXT/PLAIN']) {
    test(`should accept Content-Type ${type ?? '(none)'}`, async (t) => {
      const { upstream, relay, envelope } = await setup(t);
      const answer = await post(relay, envelope, type ? { 'Content-Type': type } : {});
      assert.equal(answer.status, 200);
      assert.equal(upstream.received.length, 1);
    });
  }

  test('should accept Content-Encoding: identity', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    assert.equal((await post(relay, envelope, { 'Content-Encoding': 'identity' })).status, 200);
    assert.equal(upstream.received.length, 1);
  });

  test('should accept a chunked body without Content-Length', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const half = Math.floor(envelope.length / 2);
    const chunk = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    const { response } = await rawExchange(relay, head, [
      chunk(envelope.subarray(0, half)),
      chunk(envelope.subarray(half)),
      Buffer.from('0\r\n\r\n'),
    ]);
    assert.equal(parseRaw(response).status, 200);
    assert.deepEqual(upstream.received[0]?.body, envelope);
  });
});

describe('mirrored upstream refusals', TIMEOUT, () => {
  for (const status of [400, 403, 413, 429]) {
    test(`should answer upstream ${status} with ${status} and its body`, async (t) => {
      const body = JSON.stringify({ detail: `upstream said ${status}` });
      const { upstream, relay, envelope } = await setup(t, { reply: () => ({ status, body }) });
      const answer = await post(relay, envelope);
      assert.equal(answer.status, status);
      assert.equal(answer.body.toString(), body);
      assert.equal(upstream.received.length, 1);
    });
  }
});

describe('upstream failures become 502', TIMEOUT, () => {
  for (const status of [500, 503, 401, 404]) {
    test(`should answer upstream ${status} with 502 and an empty JSON object`, async (t) => {
      const { relay, envelope } = await setup(t, { reply: () => ({ status, body: '{"detail":"internal detail"}' }) });
      const answer = await post(relay, envelope);
      assert.equal(answer.status, 502);
      assert.equal(answer.body.toString(), '{}');
    });
  }

  test('should keep Retry-After on an upstream 503 so the SDK backs off', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => ({ status: 503, headers: { 'Retry-After': '17' } }) });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 502);
    assert.equal(answer.headers['retry-after'], '17');
  });
});

describe('400: malformed envelope header', TIMEOUT, () => {
  const cases: Array<[string, (dsn: string) => Buffer]> = [
    ['an empty body', () => Buffer.alloc(0)],
    ['an empty first line', (dsn) => Buffer.from(`\n{"dsn":"${dsn}"}\n`)],
    ['a first line that is not JSON', () => Buffer.from('dsn=whatever\n{"type":"event"}\n{}')],
    ['a JSON array header', (dsn) => Buffer.from(`["${dsn}"]\n`)],
    ['a JSON string header', (dsn) => Buffer.from(`"${dsn}"\n`)],
    ['a header without dsn', () => makeEnvelope()],
    ['a numeric dsn', () => makeEnvelope({ dsn: 42 })],
    ['a dsn object', (dsn) => makeEnvelope({ dsn: { dsn } })],
    ['a header that is not UTF-8', () => Buffer.concat([Buffer.from('{"dsn":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')])],
    [
      'a header that repeats dsn (ours last, as JSON.parse would keep)',
      (dsn) => Buffer.from(`{"dsn":"http://x@example.com/1","dsn":"${dsn}"}\n`),
    ],
    ['a first line longer than 16 KiB', (dsn) => makeEnvelope({ dsn, header: { pad: 'x'.repeat(16 * 1024) } })],
  ];
  for (const [name, body] of cases) {
    test(`should refuse ${name} with 400 and forward nothing`, async (t) => {
      const { upstream, relay } = await setup(t);
      const answer = await post(relay, body(dsnFor(upstream)));
      assert.equal(answer.status, 400);
      assertNothingUpstream(upstream);
    });
  }

  test('should accept a header-only envelope (no items, no newline)', async (t) => {
    const { upstream, relay } = await setup(t);
    const answer = await post(relay, JSON.stringify({ dsn: dsnFor(upstream) }));
    assert.equal(answer.status, 200);
    assert.equal(upstream.received.length, 1);
  });
});

describe('403: a DSN other than the configured one', TIMEOUT, () => {
  const variants: Array<[string, (upstream: Upstream) => string]> = [
    ['another key', (u) => dsnFor(u, { key: 'other' })],
    ['another project', (u) => dsnFor(u, { project: '43' })],
    ['another host', (u) => `http://abc123@localhost:${u.port}/42`],
    ['another port', (u) => `http://abc123@127.0.0.1:${u.port + 1}/42`],
    ['another scheme', (u) => `https://abc123@127.0.0.1:${u.port}/42`],
    ['a path prefix', (u) => `http://abc123@127.0.0.1:${u.port}/sentry/42`],
    ['a trailing slash', (u) => `${dsnFor(u)}/`],
    ['a secret key added', (u) => `http://abc123:secret@127.0.0.1:${u.port}/42`],
    ['different letter case', (u) => dsnFor(u, { key: 'ABC123' })],
  ];
  for (const [name, dsn] of variants) {
    test(`should refuse ${name} with 403 without opening any connection`, async (t) => {
      const { upstream, relay } = await setup(t);
      const answer = await post(relay, makeEnvelope({ dsn: dsn(upstream) }));
      assert.equal(answer.status, 403);
      assertNothingUpstream(upstream);
      assert.equal(upstream.connections(), 0, 'no connection was opened upstream');
    });
  }

  test('should log the refusal without the body', async (t) => {
    const { upstream, relay } = await setup(t);
    await post(relay, makeEnvelope({ dsn: dsnFor(upstream, { key: 'other' }) }));
    assert.ok(relay.logs.some((line) => line.includes('"status":403')));
    assert.ok(relay.logs.every((line) => !line.includes('envelope-secret-marker') && !line.includes('other@')));
  });
});

describe('413: too large', TIMEOUT, () => {
  test('should refuse a declared Content-Length over the cap before reading the body', async (t) => {
    const { upstream, relay } = await setup(t, { options: { maxBytes: 1024 } });
    // Headers only: the answer has to come without a single body byte being sent.
    const { response } = await rawExchange(relay, `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 104857600\r\n\r\n`);
    const { status, headers } = parseRaw(response);
    assert.equal(status, 413);
    assert.equal(headers.get('connection'), 'close');
    assertNothingUpstream(upstream);
  });

  test('should refuse a chunked body as soon as the bytes read pass the cap', async (t) => {
    const { upstream, relay } = await setup(t, { options: { maxBytes: 8 * 1024 } });
    const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const start = Buffer.from(`{"dsn":"${dsnFor(upstream)}"}\n`);
    const oneKiB = Buffer.concat([Buffer.from('400\r\n'), Buffer.alloc(1024, 0x61), Buffer.from('\r\n')]);
    const chunks = [
      Buffer.concat([Buffer.from(`${start.length.toString(16)}\r\n`), start, Buffer.from('\r\n')]),
      ...Array<Buffer>(1024).fill(oneKiB),
    ];
    const { response, written } = await rawExchange(relay, head, chunks);
    const { status, headers } = parseRaw(response);
    assert.equal(status, 413);
    assert.equal(headers.get('connection'), 'close');
    assert.ok(written < 512 * 1024, `stopped early (the client wrote ${written} bytes of 1 MiB)`);
    assertNothingUpstream(upstream);
  });

  test('should accept a body of exactly the cap', async (t) => {
    const { upstream, relay } = await setup(t, { options: { maxBytes: 4096 } });
    const base = makeEnvelope({ dsn: dsnFor(upstream), items: [[{ type: 'attachment', filename: 'a.txt' }, '']] });
    const envelope = makeEnvelope({
      dsn: dsnFor(upstream),
      items: [[{ type: 'attachment', filename: 'a.txt' }, 'x'.repeat(4096 - base.length)]],
    });
    assert.equal(envelope.length, 4096);
    assert.equal((await post(relay, envelope)).status, 200);
    assert.equal((await post(relay, Buffer.concat([envelope, Buffer.from('x')]))).status, 413);
    assert.equal(upstream.received.length, 1);
  });
});

describe('415: encodings and types the SDK never sends', TIMEOUT, () => {
  for (const encoding of ['gzip', 'br', 'deflate', 'zstd', 'gzip, identity']) {
    test(`should refuse Content-Encoding ${encoding} with 415`, async (t) => {
      const { upstream, relay, envelope } = await setup(t);
      const answer = await post(relay, envelope, { 'Content-Encoding': encoding });
      assert.equal(answer.status, 415);
      assertNothingUpstream(upstream);
    });
  }
  for (const type of ['application/json', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'text/html']) {
    test(`should refuse Content-Type ${type} with 415`, async (t) => {
      const { upstream, relay, envelope } = await setup(t);
      const answer = await post(relay, envelope, { 'Content-Type': type });
      assert.equal(answer.status, 415);
      assertNothingUpstream(upstream);
    });
  }
});

describe('408: slow body', TIMEOUT, () => {
  const cases = [
    { name: 'should answer 408 and close when the client sends half a body and stops', options: { readTimeoutMs: 300 } },
    // rawExchange gives up after 5 s: only the idle timeout can answer in time.
    {
      name: 'should cut a body that makes no progress for the idle time, long before the whole-body deadline',
      options: { readTimeoutMs: 60_000, idleTimeoutMs: 300 },
    },
  ];
  for (const { name, options } of cases) {
    test(name, async (t) => {
      const { upstream, relay, envelope } = await setup(t, { options });
      const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${envelope.length}\r\n\r\n`;
      const { response } = await rawExchange(relay, head, [envelope.subarray(0, envelope.length >> 1)]);
      const { status, headers } = parseRaw(response);
      assert.equal(status, 408);
      assert.equal(headers.get('connection'), 'close');
      assertNothingUpstream(upstream);
    });
  }
});

describe('405: methods other than POST', TIMEOUT, () => {
  for (const method of ['GET', 'HEAD', 'PUT', 'OPTIONS', 'DELETE']) {
    test(`should answer ${method} with 405 and Allow: POST`, async (t) => {
      const { upstream, relay, envelope } = await setup(t);
      const answer = await post(relay, method === 'GET' || method === 'HEAD' ? '' : envelope, {}, { method });
      assert.equal(answer.status, 405);
      assert.equal(answer.headers.allow, 'POST');
      assert.equal(answer.headers['cache-control'], 'no-store');
      assertNothingUpstream(upstream);
    });
  }

  test('should leave other paths to the rest of the app (exact match)', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    for (const path of [`${PATH}/`, `${PATH}x`, `${PATH}/envelope`, '/Monitoring']) {
      assert.equal((await post(relay, envelope, {}, { path })).status, 404, path);
    }
    assertNothingUpstream(upstream);
  });
});

describe('429: load shedding', TIMEOUT, () => {
  test('should limit each client IP and answer 429 with headers the SDK backs off on', async (t) => {
    let ip = '198.51.100.1';
    const { upstream, relay, envelope } = await setup(t, { options: { burst: 2, ratePerMinute: 1, clientIp: () => ip } });
    assert.equal((await post(relay, envelope)).status, 200);
    assert.equal((await post(relay, envelope)).status, 200);
    const limited = await post(relay, envelope);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '30');
    assert.equal(limited.headers['x-sentry-rate-limits'], '30::organization');
    assert.equal(upstream.received.length, 2, 'the refused envelope did not go upstream');

    ip = '198.51.100.2';
    assert.equal((await post(relay, envelope)).status, 200, 'another client is not affected');
  });

  test('should key a client whose address is not an IP by its socket, so made-up values share one bucket', async (t) => {
    let request = 0;
    const { upstream, relay, envelope } = await setup(t, {
      options: { burst: 2, ratePerMinute: 1, clientIp: () => `not-an-address-${request++}-${'x'.repeat(15_000)}` },
    });
    assert.equal((await post(relay, envelope)).status, 200);
    assert.equal((await post(relay, envelope)).status, 200);
    assert.equal((await post(relay, envelope)).status, 429, 'the third from this socket address is limited');
    assert.equal(upstream.received.length, 2);
  });

  test('should cap forwards in flight and answer 429 past the cap, asking for a short back-off', async (t) => {
    let release!: () => void;
    const held = new Promise<Reply>((resolve) => (release = () => resolve({})));
    const { upstream, relay, envelope } = await setup(t, { reply: () => held, options: { maxInFlight: 1 } });

    const first = post(relay, envelope);
    await waitFor(() => upstream.received.length === 1);
    assert.equal(relay.relay.inFlight(), 1);
    const second = await post(relay, envelope);
    assert.equal(second.status, 429);
    // Not this sender's doing: every visitor who meets it goes silent for as long as we ask.
    assert.equal(second.headers['retry-after'], '2');
    assert.equal(second.headers['x-sentry-rate-limits'], '2::organization');

    release();
    assert.equal((await first).status, 200);
    assert.equal(relay.relay.inFlight(), 0);
    assert.equal(upstream.received.length, 1, 'the refused envelope did not go upstream');
  });

  test('should answer 429 with a short back-off when the shared buffer budget is spent, and warn', async (t) => {
    const { upstream, relay, envelope } = await setup(t, { options: { maxBufferedBytes: 100 } });
    assert.ok(envelope.length > 100);
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 429);
    assert.equal(answer.headers['retry-after'], '2');
    assert.equal(answer.headers['x-sentry-rate-limits'], '2::organization');
    assert.ok(
      relay.logs.some((line) => JSON.parse(line).level === 'warn' && line.includes('budget spent')),
      'a spent budget is logged at warn',
    );
    assertNothingUpstream(upstream);
  });

  test('should not let uploads that declare a length and send nothing shed another address', async (t) => {
    // Four declare the whole budget between them (each the largest body allowed); none sends a byte.
    const { upstream, relay, envelope } = await setup(t, {
      options: {
        maxBytes: 64 * 1024,
        maxBufferedBytes: 256 * 1024,
        idleTimeoutMs: 5_000,
        clientIp: (ctx) => ctx.req.socket.remoteAddress!,
      },
    });
    const idle = await Promise.all(Array.from({ length: 13 }, () => heldUpload(relay, { declared: 64 * 1024 })));
    t.after(() => {
      for (const upload of idle) upload.close();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));

    const answer = await post(relay, envelope, {}, { localAddress: '127.0.0.2' });
    assert.equal(answer.status, 200);
    assert.equal(upstream.received.length, 1);
    assert.equal(relay.relay.bufferedBytes(), 0, 'declared lengths reserve nothing');
  });

  test('should cut the oldest slow uploads to make room, so clients trickling big bodies cannot shed another address', async (t) => {
    // The budget attack at a small scale: four addresses, two uploads each, send all but the
    // last bytes of their bodies at once and then a byte now and then, so no timeout ends them.
    const { upstream, relay } = await setup(t, {
      options: {
        maxBytes: 64 * 1024,
        maxBufferedBytes: 512 * 1024,
        perClientBufferedBytes: 128 * 1024,
        clientIp: (ctx) => ctx.req.socket.remoteAddress!,
      },
    });
    const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
    const slow: Awaited<ReturnType<typeof heldUpload>>[] = [];
    for (const localAddress of addresses) {
      for (let i = 0; i < 2; i++) {
        slow.push(await heldUpload(relay, { declared: 64 * 1024, sent: Buffer.alloc(63 * 1024, 0x61), localAddress, dripEveryMs: 200 }));
      }
    }
    t.after(() => {
      for (const upload of slow) upload.close();
    });
    await waitFor(() => relay.relay.bufferedBytes() >= 8 * 63 * 1024, { what: 'the slow uploads fill the budget' });
    // Past the age from which a body still arriving counts as slow.
    await new Promise((resolve) => setTimeout(resolve, RELAY_DEFAULTS.slowBodyAfterMs + 100));

    const big = makeEnvelope({ dsn: dsnFor(upstream), items: [[{ type: 'attachment', filename: 'a.txt' }, 'x'.repeat(30 * 1024)]] });
    assert.ok(big.length > 512 * 1024 - relay.relay.bufferedBytes(), 'the envelope does not fit beside the slow uploads');
    const answer = await post(relay, big, {}, { localAddress: '127.0.0.9' });
    assert.equal(answer.status, 200, 'a ninth address is served');
    assert.equal(upstream.received.length, 1);

    // A slow upload paid for the room (the oldest): told to back off briefly, and its connection closed.
    const cut = parseRaw(await Promise.race(slow.map((upload) => upload.answer)));
    assert.equal(cut.status, 429);
    assert.equal(cut.headers.get('retry-after'), '2');
    assert.equal(cut.headers.get('connection'), 'close');
    assert.equal(slow.filter((upload) => upload.closed()).length, 1, 'one cut was room enough');
    assert.ok(
      relay.logs.some((line) => JSON.parse(line).level === 'warn' && line.includes('budget spent') && line.includes('"cutSlow":1')),
      'the cut is logged at warn',
    );
  });

  test('should let one address hold only its share of the budget, with a short back-off past it', async (t) => {
    const { upstream, relay } = await setup(t, {
      options: {
        maxBufferedBytes: 1024 * 1024,
        perClientBufferedBytes: 128 * 1024,
        idleTimeoutMs: 5_000,
        clientIp: (ctx) => ctx.req.socket.remoteAddress!,
      },
    });
    // Two uploads from one address send all but their last byte and hold it: 120 KiB held.
    const held = await Promise.all([1, 2].map(() => heldUpload(relay, { declared: 60 * 1024 + 1, sent: Buffer.alloc(60 * 1024, 0x61) })));
    t.after(() => {
      for (const upload of held) upload.close();
    });
    await waitFor(() => relay.relay.bufferedBytes() === 120 * 1024);

    const big = makeEnvelope({ dsn: dsnFor(upstream), items: [[{ type: 'attachment', filename: 'a.txt' }, 'x'.repeat(30 * 1024)]] });
    const refused = await post(relay, big);
    assert.equal(refused.status, 429, 'a third upload from the same address passes its share');
    assert.equal(refused.headers['retry-after'], '2');
    const other = await post(relay, big, {}, { localAddress: '127.0.0.2' });
    assert.equal(other.status, 200, 'another address still has its share');
    assert.equal(upstream.received.length, 1);
  });
});
