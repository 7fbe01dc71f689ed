import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { get } from '../../helpers/http.ts';
import { startServer } from '../../helpers/server.ts';
import { makeLargePageLocales } from '../../helpers/content.ts';
import { startUpstream } from '../../helpers/upstream.ts';

/**
 * SIGTERM while a large page is still being written to a slow reader: the
 * response completes, new connections are refused, the process exits 0.
 */
test('SIGTERM lets a slow streamed response finish, refuses new connections, and exits 0', async () => {
  const dir = makeLargePageLocales();
  const server = await startServer({ LOCALES_DIR: dir, RENDER_CACHE: 'off', SHUTDOWN_GRACE_MS: '20000' });
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

  const url = new URL(server.url);
  const body = await new Promise<string>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/en/big', headers: { 'Accept-Encoding': 'identity' } }, (res) => {
      assert.equal(res.statusCode, 200);
      res.pause();
      // The response has started and the client is not reading: now ask the server to stop.
      server.child.kill('SIGTERM');
      setTimeout(async () => {
        // While draining, a new connection is refused.
        await assert.rejects(get(server.url, '/en'), /ECONNREFUSED|ECONNRESET|socket hang up/);
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        res.resume();
      }, 500);
    });
    req.on('error', reject);
    req.end();
  });
  assert.match(body, /THE END/);
  assert.match(body, /<\/html>$/);
  assert.equal(await exited, 0);
  assert.ok(server.lines.some((line) => line.includes('"draining"')));
});

test('/healthz says draining with 503 on a kept-alive connection after SIGTERM', async () => {
  const server = await startServer({ SHUTDOWN_GRACE_MS: '3000' });
  const url = new URL(server.url);
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ask = () =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: '/healthz', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      })
        .on('error', reject)
        .end();
    });
  // Hold a slow request open on another connection so the server stays up while draining.
  const slow = request({ host: url.hostname, port: url.port, path: '/en', headers: { 'Accept-Encoding': 'identity' } });
  slow.on('error', () => {});
  assert.equal((await ask()).status, 200);
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const during = await ask().catch(() => null);
  // Either the kept-alive socket was still open (503, closing) or it was closed as idle: both are clean.
  if (during) {
    assert.equal(during.status, 503);
    assert.equal(during.connection, 'close');
  }
  agent.destroy();
  slow.destroy();
  assert.equal(await exited, 0);
});

for (const SERVE of ['site', 'relay']) {
  test(`SIGTERM lets a relay forward held by a slow upstream finish, refuses new connections, and exits 0 (SERVE=${SERVE})`, async () => {
    // Sentry stand-in that takes 1.5 s to answer.
    const upstream = await startUpstream(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { body: '{"id":"0123456789abcdef0123456789abcdef"}' };
    });
    try {
      const dsn = `http://publickey@127.0.0.1:${upstream.port}/42`;
      const server = await startServer({ SERVE, SENTRY_DSN: dsn, SHUTDOWN_GRACE_MS: '10000' });
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      const envelope = `${JSON.stringify({ dsn })}\n{"type":"event"}\n{"message":"during shutdown"}\n`;
      const forwarded = fetch(`${server.url}/monitoring`, { method: 'POST', body: envelope });
      // Wait until the envelope is at the upstream, then ask the server to stop.
      while (upstream.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await assert.rejects(get(server.url, '/en'), /ECONNREFUSED|ECONNRESET|socket hang up/);
      const response = await forwarded;
      assert.equal(response.status, 200);
      assert.equal(await response.text(), '{"id":"0123456789abcdef0123456789abcdef"}');
      assert.equal(await exited, 0);
    } finally {
      await upstream.close();
    }
  });
}
