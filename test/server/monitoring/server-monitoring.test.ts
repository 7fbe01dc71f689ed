import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { parseEnvelope } from '@sentry/core';
import { ROOT } from '../../helpers/server.ts';
import { startUpstream, type Upstream } from '../../helpers/upstream.ts';

/**
 * The Sentry SDK as the server starts it (src/server/monitoring/server-monitoring.ts), in a
 * process of its own, against a loopback stand-in for Sentry: reported errors and
 * unhandled rejections go straight to the DSN's ingest URL, and flush on shutdown.
 */
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream();
});
beforeEach(() => {
  upstream.received.length = 0;
});
after(async () => {
  await upstream.close();
});

const IMPORTS = `
import { flushServerMonitoring, reportServerError, startServerMonitoring } from './src/server/monitoring/server-monitoring.ts';
import { loadConfig } from './src/server/config.ts';
const { sentry } = loadConfig();
`;

/** Runs `script` with SENTRY_DSN pointing at the stand-in; its exit code, stderr and the events that arrived. */
async function run(script: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', IMPORTS + script], {
    cwd: ROOT,
    env: { ...process.env, SENTRY_DSN: `http://serverkey@127.0.0.1:${upstream.port}/42`, SENTRY_ENVIRONMENT: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const events = upstream.received.flatMap((request) => {
    assert.match(
      request.url,
      /^\/api\/42\/envelope\/\?sentry_version=7&sentry_key=serverkey&sentry_client=sentry\.javascript\.node/,
      'straight to the ingest URL, not a relay',
    );
    const [, entries] = parseEnvelope(new Uint8Array(request.body));
    return entries.filter(([header]) => header.type === 'event').map(([, payload]) => payload as Record<string, any>);
  });
  return { code, stdout, stderr, events, byMessage: (message: string) => events.find((event) => messageOf(event) === message) };
}

const messageOf = (event: Record<string, any>) => event.exception?.values?.at(-1)?.value;

test('server errors and unhandled rejections reach the DSN directly, tagged with the release', async () => {
  const { code, stderr, events } = await run(`
await startServerMonitoring(sentry, 'build-abc');
reportServerError(new Error('server render boom'));
Promise.reject(new Error('unhandled boom'));
setTimeout(async () => {
  await flushServerMonitoring(30_000);
  process.exit(0);
}, 300);
`);
  assert.equal(code, 0, stderr);
  const messages = events.map(messageOf);
  assert.ok(messages.includes('server render boom'), `reported error arrived (got ${messages.join(', ')})`);
  assert.ok(messages.includes('unhandled boom'), 'unhandled rejection arrived');
  for (const event of events) {
    assert.equal(event.release, 'build-abc');
    assert.equal(event.environment, 'test');
    assert.equal(event.platform, 'node');
    assert.ok(event.exception.values.at(-1).stacktrace.frames.length > 0, 'with its stack trace');
  }
  const rejection = events.find((event) => messageOf(event) === 'unhandled boom')!;
  assert.equal(rejection.exception.values.at(-1).mechanism.handled, false);
});

test('errors reported while the SDK loads are queued and sent once it is ready, with the method and path only', async () => {
  const { code, stderr, byMessage } = await run(`
const ready = startServerMonitoring(sentry, 'build-abc');
reportServerError(new Error('before ready'), { method: 'GET', path: '/de/docs/routing' });
await ready;
reportServerError(new Error('after ready'));
await flushServerMonitoring(30_000);
process.exit(0);
`);
  assert.equal(code, 0, stderr);
  const early = byMessage('before ready');
  assert.ok(early, 'the error reported before the SDK was ready arrived');
  assert.deepEqual(early.request, { method: 'GET', url: '/de/docs/routing' });
  assert.equal(early.user, undefined);
  assert.ok(byMessage('after ready'));
});

test('flush on shutdown waits for an SDK that is still loading, so nothing queued is lost', async () => {
  const { code, stderr, byMessage } = await run(`
startServerMonitoring(sentry, 'build-abc');
reportServerError(new Error('right before shutdown'));
await flushServerMonitoring(30_000);
process.exit(0);
`);
  assert.equal(code, 0, stderr);
  assert.ok(byMessage('right before shutdown'));
});

test('an uncaught exception is reported as unhandled and fatal, printed, and ends the process with 1', async () => {
  const { code, stderr, byMessage } = await run(`
await startServerMonitoring(sentry, 'build-abc');
setTimeout(() => {
  throw new Error('uncaught boom');
});
`);
  assert.equal(code, 1);
  assert.match(stderr, /Error: uncaught boom\n\s+at /);
  const event = byMessage('uncaught boom');
  assert.ok(event, 'the uncaught exception arrived');
  assert.equal(event.level, 'fatal');
  assert.equal(event.exception.values.at(-1).mechanism.handled, false);
});

// What made monitoring cost a third of the throughput: @sentry/node's init subscribes
// to every incoming and outgoing request and runs each request in an async context.
test('with monitoring on, nothing watches requests: no diagnostics-channel subscriber, no async context', async () => {
  const { code, stderr, stdout } = await run(`
import diagnostics from 'node:diagnostics_channel';
import { getCurrentScope, withIsolationScope } from '@sentry/core';
await startServerMonitoring(sentry, 'build-abc');
const channels = ['http.server.request.start', 'http.client.request.start', 'undici:request:create', 'http.server.response.finish'];
// With an async context (AsyncLocalStorage), a callback scheduled in a forked scope still sees that scope later.
let later;
withIsolationScope(() => setTimeout(() => (later = getCurrentScope())));
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({ watched: channels.filter((name) => diagnostics.hasSubscribers(name)), sameScope: later === getCurrentScope() }));
process.exit(0);
`);
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), { watched: [], sameScope: true });
});
