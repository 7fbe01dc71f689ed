import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { parseEnvelope } from '@sentry/core';
import { closedPort, FORWARDED_HEADER_NAMES, startUpstream } from '../../../helpers/upstream.ts';
import { waitFor } from '../../../helpers/wait.ts';
import { CLIENT_IP, dsnFor, makeEnvelope, post, setup, startRelay } from './harness.ts';

/** What goes upstream, what comes back, and what happens when upstream misbehaves. */
const TIMEOUT = { timeout: 15_000 };

describe('the bytes upstream', TIMEOUT, () => {
  test('should pass a binary replay_recording byte for byte', async (t) => {
    const { upstream, relay } = await setup(t);
    // Zeros, newlines and bytes that are not UTF-8: any text decoding would change them.
    const recording = Buffer.concat([Buffer.from([0x00, 0x0a, 0xff, 0xfe, 0xc3, 0x28, 0x0d, 0x0a, 0x80]), randomBytes(4096)]);
    const envelope = makeEnvelope({
      dsn: dsnFor(upstream),
      header: { event_id: '0123456789abcdef0123456789abcdef' },
      items: [
        [{ type: 'replay_event' }, { type: 'replay_event', replay_id: '0123456789abcdef0123456789abcdef', segment_id: 0 }],
        [{ type: 'replay_recording', length: recording.length }, recording],
      ],
    });
    const answer = await post(relay, envelope);

    assert.equal(answer.status, 200);
    const received = upstream.received[0]!.body;
    assert.ok(received.equals(envelope), 'the upstream got exactly the bytes sent');
    const [, items] = parseEnvelope(received);
    assert.deepEqual(
      items.map(([header]) => header.type),
      ['replay_event', 'replay_recording'],
    );
    assert.ok(Buffer.from(items[1]![1] as Uint8Array).equals(recording), 'the recording decodes to the same bytes');
  });

  test('should send only our own headers, with X-Forwarded-For from clientIp()', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    await post(relay, envelope, {
      Cookie: 'session=secret-session',
      Authorization: 'Bearer secret-token',
      'X-Forwarded-For': '6.6.6.6, 7.7.7.7',
      'X-Real-IP': '6.6.6.6',
      Forwarded: 'for=6.6.6.6',
      Origin: 'https://example.test',
      Referer: 'https://example.test/en/private?token=1',
      'X-Sentry-Auth': 'Sentry sentry_key=other',
      'Content-Type': 'text/plain;charset=UTF-8',
    });
    const { headers } = upstream.received[0]!;
    assert.deepEqual(Object.keys(headers).sort(), FORWARDED_HEADER_NAMES);
    assert.equal(headers['x-forwarded-for'], CLIENT_IP);
    assert.equal(headers.host, `127.0.0.1:${upstream.port}`);
    assert.equal(headers['content-type'], 'application/x-sentry-envelope');
    assert.match(headers['user-agent']!, /^polysite-relay\//);
  });

  test('should leave X-Forwarded-For out when clientIp() is not an address', async (t) => {
    const { upstream, relay, envelope } = await setup(t, { options: { clientIp: () => '1.2.3.4\r\nX-Injected: yes' } });
    assert.equal((await post(relay, envelope)).status, 200);
    assert.equal(upstream.received[0]!.headers['x-forwarded-for'], undefined);
    assert.equal(upstream.received[0]!.headers['x-injected'], undefined);
  });

  test('should reuse one keep-alive connection for consecutive envelopes', async (t) => {
    const { upstream, relay, envelope } = await setup(t);
    for (let i = 0; i < 3; i++) assert.equal((await post(relay, envelope)).status, 200);
    assert.equal(upstream.received.length, 3);
    assert.equal(upstream.connections(), 1);
  });

  test('should never log the envelope', async (t) => {
    const { relay, envelope } = await setup(t);
    await post(relay, envelope);
    assert.ok(relay.logs.length > 0);
    for (const line of relay.logs) {
      assert.ok(!line.includes('envelope-secret-marker') && !line.includes('abc123'), line);
      assert.ok(!line.includes(CLIENT_IP), 'nor the client address');
    }
    assert.deepEqual(JSON.parse(relay.logs.at(-1)!), {
      level: 'debug',
      msg: 'relay forwarded',
      status: 200,
      project: '42',
      bytes: envelope.length,
      upstream: 200,
    });
  });
});

describe('the answer from upstream', TIMEOUT, () => {
  const SENTRY_HEADERS = {
    'Retry-After': '60',
    'X-Sentry-Rate-Limits': '60:replay:organization:quota_exceeded, 10::key',
    'Set-Cookie': 'sentry-sc=1; Path=/',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains; preload',
    'Alt-Svc': 'h3=":443"',
    'Access-Control-Allow-Origin': '*',
    'X-Sentry-Error': 'detail',
    Server: 'nginx',
  };

  for (const status of [200, 429]) {
    test(`should pass Retry-After and X-Sentry-Rate-Limits through on ${status}, and nothing else`, async (t) => {
      const { relay, envelope } = await setup(t, { reply: () => ({ status, headers: SENTRY_HEADERS }) });
      const answer = await post(relay, envelope);
      assert.equal(answer.status, status);
      assert.equal(answer.headers['retry-after'], '60');
      assert.equal(answer.headers['x-sentry-rate-limits'], '60:replay:organization:quota_exceeded, 10::key');
      for (const name of [
        'set-cookie',
        'strict-transport-security',
        'alt-svc',
        'access-control-allow-origin',
        'x-sentry-error',
        'server',
      ]) {
        assert.equal(answer.headers[name], undefined, `${name} is not passed through`);
      }
      assert.equal(answer.headers['cache-control'], 'no-store');
    });
  }

  test('should answer {} for a body that is not JSON', async (t) => {
    const { relay, envelope } = await setup(t, {
      reply: () => ({ headers: { 'Content-Type': 'text/html' }, body: '<script>alert(1)</script>' }),
    });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.body.toString(), '{}');
  });

  test('should answer {} for a compressed body rather than decompress it', async (t) => {
    const { relay, envelope } = await setup(t, {
      reply: () => ({ headers: { 'Content-Encoding': 'gzip' }, body: gzipSync('{"id":"x"}') }),
    });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(answer.body.toString(), '{}');
  });

  test('should still answer when upstream sends a huge body (5 MB), without relaying it', async (t) => {
    // Valid JSON, so only the cap can turn it into {}.
    const huge = Buffer.from(JSON.stringify({ id: 'x', padding: 'p'.repeat(5 * 1024 * 1024) }));
    const { relay, envelope } = await setup(t, { reply: () => ({ body: huge }) });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString(), '{}');
    // The relay keeps working afterwards (the oversized connection was dropped, not reused).
    assert.equal((await post(relay, envelope)).status, 200);
  });

  test('should relay a short upstream answer as it came', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => ({ body: '{"id":"0123456789abcdef0123456789abcdef"}' }) });
    assert.equal((await post(relay, envelope)).body.toString(), '{"id":"0123456789abcdef0123456789abcdef"}');
  });

  test('should not wait for an upstream body declared longer than the cap', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => 'declare-huge-then-stall' });
    const started = Date.now();
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString(), '{}');
    assert.ok(Date.now() - started < 2_000, `answered without waiting for the body timeout (${Date.now() - started} ms)`);
  });
});

describe('upstream down, hanging or redirecting', TIMEOUT, () => {
  test('should answer 502 within about 3 s when the upstream refuses connections', async (t) => {
    const port = await closedPort();
    const relay = await startRelay({ port });
    t.after(() => relay.close());
    const started = Date.now();
    const answer = await post(relay, makeEnvelope({ dsn: dsnFor({ port }) }));
    assert.equal(answer.status, 502);
    assert.equal(answer.body.toString(), '{}');
    assert.ok(Date.now() - started < 3_500, `answered in ${Date.now() - started} ms`);
    assert.ok(relay.logs.some((line) => line.includes('ECONNREFUSED')));
  });

  test('should answer 504 when the upstream accepts and never answers', async (t) => {
    const { upstream, relay, envelope } = await setup(t, { reply: () => 'hang', options: { headersTimeoutMs: 300 } });
    const started = Date.now();
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 504);
    assert.equal(answer.body.toString(), '{}');
    assert.equal(upstream.received.length, 1);
    assert.ok(Date.now() - started < 5_000, `answered in ${Date.now() - started} ms`);
    assert.equal(relay.relay.inFlight(), 0);
  });

  test('should answer 504 when the upstream stalls in the middle of its body', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => 'stall', options: { bodyTimeoutMs: 300 } });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 504);
    assert.ok(relay.logs.some((line) => line.includes('UND_ERR_BODY_TIMEOUT')));
  });

  test('should answer 504 at the overall deadline, whichever undici timeout is longer', async (t) => {
    const { relay, envelope } = await setup(t, { reply: () => 'hang', options: { totalTimeoutMs: 300 } });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 504);
    assert.ok(relay.logs.some((line) => line.includes('total timeout')));
  });

  test('should answer 502 to a redirect and never follow it', async (t) => {
    const elsewhere = await startUpstream();
    t.after(() => elsewhere.close());
    const { upstream, relay, envelope } = await setup(t, {
      reply: () => ({ status: 302, headers: { Location: `${elsewhere.origin}/api/42/envelope/`, 'Retry-After': '5' } }),
    });
    const answer = await post(relay, envelope);
    assert.equal(answer.status, 502);
    assert.equal(answer.headers.location, undefined);
    assert.equal(upstream.received.length, 1);
    assert.equal(elsewhere.received.length, 0, 'the redirect target got nothing');
    assert.equal(elsewhere.connections(), 0);
  });
});

describe('close()', TIMEOUT, () => {
  test('should wait for a forward in flight, then close the pool', async (t) => {
    let release!: () => void;
    const { upstream, relay, envelope } = await setup(t, { reply: () => new Promise((resolve) => (release = () => resolve({}))) });
    const pending = post(relay, envelope);
    await waitFor(() => upstream.received.length > 0);
    const closed = relay.relay.close();
    release();
    assert.equal((await pending).status, 200);
    await closed;
    assert.equal(relay.relay.inFlight(), 0);
    await relay.relay.close(); // a second call is harmless
  });
});
