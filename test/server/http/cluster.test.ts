import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from '../../helpers/http.ts';
import { waitFor } from '../../helpers/wait.ts';
import { startServer } from '../../helpers/server.ts';

/** WEB_CONCURRENCY=2: two workers serve; one killed is replaced, and requests keep being answered. */
test('two workers serve, a killed worker is replaced, and nothing is refused meanwhile', async () => {
  const server = await startServer({ WEB_CONCURRENCY: '2' });
  try {
    const listening = () => server.lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'listening');
    await waitFor(() => listening().length >= 2, { ms: 10_000, what: 'two workers listening' });
    const workers = listening().map((entry) => entry.pid as number);
    assert.equal(new Set(workers).size, 2);

    process.kill(workers[0]!, 'SIGKILL');
    // A connection the primary hands to a worker at the very instant it is killed is lost
    // with it (node:cluster cannot take it back); from the moment the primary knows, the
    // other worker takes everything while the replacement starts.
    await waitFor(() => server.lines.some((line) => line.includes('worker died, replacing it')), {
      ms: 10_000,
      what: 'the replacement log line',
    });
    const statuses: number[] = [];
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline && listening().length < 3) {
      statuses.push((await get(server.url, '/en', { Connection: 'close' })).status);
    }
    await waitFor(() => listening().length >= 3, { ms: 10_000, what: 'the replacement worker listening' });
    statuses.push((await get(server.url, '/de', { Connection: 'close' })).status);
    assert.ok(statuses.length > 1);
    assert.deepEqual(new Set(statuses), new Set([200]));
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
