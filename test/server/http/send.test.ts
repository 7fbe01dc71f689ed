import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { sendWhole } from '../../../src/server/http/send.ts';

/** A server on loopback whose one answer is `body`, sent by sendWhole in `encoding`; the raw answer. */
async function answerOf(body: Buffer, encoding: 'br' | 'gzip') {
  const app = new Koa();
  app.use((ctx) => sendWhole(ctx, body, encoding));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

test('a body made for one answer is compressed whole when small and as a stream when long, the same text either way', async () => {
  const small = Buffer.from('<p>short</p>'.repeat(100));
  const long = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `<p>paragraph ${i}</p>`).join(''));
  assert.ok(long.length > 256 * 1024);
  for (const body of [small, long]) {
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await answerOf(body, encoding);
      assert.equal(answer.headers['content-encoding'], encoding);
      // A whole body has its length; a stream's is not known when its headers go.
      assert.equal(answer.headers['transfer-encoding'], body === long ? 'chunked' : undefined, `${body.length} bytes`);
      const text = encoding === 'br' ? brotliDecompressSync(answer.body) : gunzipSync(answer.body);
      assert.ok(text.equals(body), `${body.length} bytes in ${encoding}`);
    }
  }
});
