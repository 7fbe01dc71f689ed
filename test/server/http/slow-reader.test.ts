import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { get } from '../../helpers/http.ts';
import { startServer } from '../../helpers/server.ts';
import { makeLargePageLocales } from '../../helpers/content.ts';

/**
 * A client that asks for a page and reads nothing holds a socket and the unsent rest
 * of the page. requestTimeout covers the request, not the answer: serve.ts's socket
 * timeout (REQUEST_TIMEOUT_MS + 5 s without progress) lets it go. Node lets a stalled
 * write run one more timeout first, so that is 5.1 s to 10.2 s here.
 */
test('a client that reads nothing of a large page is cut off once the socket stalls past its timeout, and others are served', async () => {
  const dir = makeLargePageLocales();
  const server = await startServer({ LOCALES_DIR: dir, RENDER_CACHE: 'off', HEADERS_TIMEOUT_MS: '100', REQUEST_TIMEOUT_MS: '100' });
  try {
    const url = new URL(server.url);
    const received = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('GET /en/big HTTP/1.1\r\nHost: example.test\r\nAccept-Encoding: identity\r\n\r\n');
      });
      socket.pause();
      // Past twice the timeout: then read what the server handed over before it let go.
      setTimeout(() => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => {});
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.resume();
        // A connection the server kept would stay open: end the test's wait either way.
        setTimeout(() => socket.destroy(), 3000).unref();
      }, 12_000);
    });
    assert.match(received, /^HTTP\/1\.1 200 /);
    const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(received)?.[1]);
    assert.ok(length > 10_000_000, `the page is large (${length} bytes)`);
    assert.ok(!received.includes('THE END'), `cut off: ${received.length} bytes arrived of a ${length}-byte body`);
    assert.equal((await get(server.url, '/en')).status, 200, 'the server goes on serving');
  } finally {
    await server.stop();
  }
});
