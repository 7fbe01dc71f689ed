import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { parseEnvelope } from '@sentry/core';
import { startServer, type RunningServer } from '../../helpers/server.ts';
import { startUpstream, type Upstream } from '../../helpers/upstream.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * Visitors who leave mid-response, against the built server with monitoring on
 * (SENTRY_DSN pointing at a loopback stand-in for Sentry): a closed tab is not a
 * server error, so it is never logged as one and never reported.
 */
let upstream: Upstream;
let server: RunningServer;
before(async () => {
  upstream = await startUpstream();
  server = await startServer({ SENTRY_DSN: `http://serverkey@127.0.0.1:${upstream.port}/42`, LOG_LEVEL: 'debug' });
});
after(async () => {
  await server?.stop();
  await upstream?.close();
});

/** Asks for `path` and closes the connection as soon as the first bytes of the answer arrive. */
function leaveAfterFirstBytes(path: string, acceptEncoding: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${acceptEncoding}\r\n\r\n`),
    );
    socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

const levelOf = (line: string) => (JSON.parse(line) as { level: string }).level;

describe('client aborts', () => {
  test('300 visitors leaving after the first bytes, of rendered pages and of streamed files: no error line, nothing reported', async () => {
    const before = server.lines.length;
    const encodings = ['br', 'gzip', 'identity'];
    // The entry script, 250 KB unencoded, is streamed from disk: the ones who leave it are
    // noticed mid-response. Each page is a path never asked before, so it is rendered.
    const html = await (await fetch(`${server.url}/en`)).text();
    const script = html.match(/<script type="module" src="([^"]+)"/)![1]!;
    for (let batch = 0; batch < 15; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 ? leaveAfterFirstBytes(script, 'identity') : leaveAfterFirstBytes(`/en/gone-${batch}-${i}`, encodings[(batch + i) % 3]!),
        ),
      );
    }
    await waitFor(() => server.lines.slice(before).filter((line) => line.includes('"msg":"request"')).length >= 301, { ms: 10_000 });
    const lines = server.lines.slice(before);
    const errors = lines.filter((line) => levelOf(line) === 'error');
    assert.deepEqual(errors.slice(0, 3), [], `${errors.length} error lines`);
    // The aborts the server noticed are there, at debug, each with its request id.
    const noted = lines.filter((line) => line.includes('"msg":"client went away"'));
    assert.ok(noted.length > 0, 'some aborts were noticed mid-response');
    for (const line of noted) {
      assert.equal(levelOf(line), 'debug');
      assert.match(line, /"id":"[\w-]{36}"/);
    }
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'still serving');

    // Stopping flushes @sentry/node: whatever it had queued is at the stand-in now.
    await server.stop();
    const events = upstream.received.flatMap((request) =>
      parseEnvelope(new Uint8Array(request.body))[1].filter(([header]) => header.type === 'event'),
    );
    assert.equal(events.length, 0, 'nothing reported to Sentry');
  });
});
