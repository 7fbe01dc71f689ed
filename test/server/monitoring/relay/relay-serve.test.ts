// The relay's status table (relay.test.ts) once more, with the relay mounted in the
// app of `SERVE=relay` (src/server/http/relay-app.ts: the relay alone, for a site exported
// to a static host) instead of the site's mount: every rung answers the same there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, post, setup } from './harness.ts';

harness.mount = 'relay-app';
await import('./relay.test.ts');

test('the mount is the relay app: /healthz answers beside the relay, with the security headers', async (t) => {
  const { relay } = await setup(t);
  const health = await post(relay, '', {}, { method: 'GET', path: '/healthz' });
  assert.equal(health.status, 200);
  assert.deepEqual(JSON.parse(health.body.toString()), { status: 'ok', build: null });
  assert.match(health.headers['content-security-policy'] as string, /default-src 'self'/);
});
