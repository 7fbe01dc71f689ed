import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { parseEnvelope } from '@sentry/core';
import { ROOT } from '../helpers/server.ts';
import { startUpstream, type Upstream } from '../helpers/upstream.ts';

/**
 * @sentry/node as the server starts it (src/server/server-monitoring.ts), in a
 * process of its own, against a loopback stand-in for Sentry: reported errors and
 * unhandled rejections go straight to the DSN's ingest URL, and flush on shutdown.
 */
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream();
});
after(async () => {
  await upstream.close();
});

const SCRIPT = `
import { flushServerMonitoring, reportServerError, startServerMonitoring } from './src/server/server-monitoring.ts';
import { loadConfig } from './src/server/config.ts';
const { sentry } = loadConfig();
await startServerMonitoring(sentry, 'build-abc');
reportServerError(new Error('server render boom'));
Promise.reject(new Error('unhandled boom'));
setTimeout(async () => {
  await flushServerMonitoring(5000);
  process.exit(0);
}, 300);
`;

test('server errors and unhandled rejections reach the DSN directly, tagged with the release', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, SENTRY_DSN: `http://serverkey@127.0.0.1:${upstream.port}/42`, SENTRY_ENVIRONMENT: 'test' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, stderr);

  const events = upstream.received.flatMap((request) => {
    assert.match(
      request.url,
      /^\/api\/42\/envelope\/\?sentry_version=7&sentry_key=serverkey&sentry_client=sentry\.javascript\.node/,
      'straight to the ingest URL, not a relay',
    );
    const [, entries] = parseEnvelope(new Uint8Array(request.body));
    return entries.filter(([header]) => header.type === 'event').map(([, payload]) => payload as Record<string, any>);
  });
  const messages = events.map((event) => event.exception?.values?.[0]?.value);
  assert.ok(messages.includes('server render boom'), `reported error arrived (got ${messages.join(', ')})`);
  assert.ok(messages.includes('unhandled boom'), 'unhandled rejection arrived');
  for (const event of events) {
    assert.equal(event.release, 'build-abc');
    assert.equal(event.environment, 'test');
  }
});
