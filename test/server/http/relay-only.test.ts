import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from '../../helpers/http.ts';
import { startServer, startServerExpectingFailure, type RunningServer } from '../../helpers/server.ts';
import { startUpstream, type Upstream } from '../../helpers/upstream.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * `npm start` with SERVE=relay: the monitoring relay and /healthz, nothing of the
 * site (a static host serves it). The relay's own tests run against this mode too
 * (relay/wiring.test.ts, relay/relay-serve.test.ts, shutdown.test.ts).
 */
let upstream: Upstream;
let server: RunningServer;
before(async () => {
  upstream = await startUpstream();
  server = await startServer({ SERVE: 'relay', SENTRY_DSN: `http://publickey@127.0.0.1:${upstream.port}/42` });
});
after(async () => {
  await server?.stop();
  await upstream?.close();
});

test('says it serves the relay only, and /healthz answers with the build', async () => {
  const listening = JSON.parse(server.lines.find((line) => line.includes('"listening"'))!);
  assert.equal(listening.serve, 'relay');
  const health = await get(server.url, '/healthz');
  assert.equal(health.status, 200);
  assert.equal(health.headers['cache-control'], 'no-store');
  assert.match(JSON.parse(health.body).build, /^[\w-]{12}$/);
});

test('nothing of the site: pages, page data, assets, the sitemap and / are 404, with the security headers', async () => {
  for (const path of ['/', '/en', '/en/docs', '/_data/x/en.json', '/assets/main.js', '/sitemap.xml', '/robots.txt']) {
    const answer = await get(server.url, path);
    assert.equal(answer.status, 404, path);
    assert.match(answer.headers['content-security-policy'] as string, /default-src 'self'/);
    assert.ok(answer.headers['x-request-id'], 'a request id, as every answer has');
  }
});

test('relays an envelope, and logs one line per request like the full server', async () => {
  const dsn = `http://publickey@127.0.0.1:${upstream.port}/42`;
  const response = await fetch(`${server.url}/monitoring`, { method: 'POST', body: `${JSON.stringify({ dsn })}\n{"type":"event"}\n{}\n` });
  assert.equal(response.status, 200);
  assert.equal(upstream.received.length, 1);
  const logged = () =>
    server.lines.map((entry) => JSON.parse(entry)).find((entry) => entry.msg === 'request' && entry.path === '/monitoring');
  await waitFor(() => logged() !== undefined);
  assert.equal(logged().status, 200);
});

test('refuses to start without SENTRY_DSN, with one line naming SERVE', async () => {
  const { code, stderr } = await startServerExpectingFailure({ SERVE: 'relay' });
  assert.equal(code, 1);
  assert.equal(stderr, 'polysite: bad configuration: SERVE: "relay" runs the monitoring relay, which needs SENTRY_DSN\n');
});
