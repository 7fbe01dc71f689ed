import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressAsset, compressedWithin } from '../../scripts/asset-compression.ts';

/** `count` chunks of `size` bytes, made only as they are read (`made` counts them). */
function madeOnRead(chunk: (i: number) => Buffer, count: number) {
  const made = { count: 0 };
  function* parts() {
    for (let i = 0; i < count; i++) {
      made.count++;
      yield chunk(i);
    }
  }
  return { parts: parts(), made };
}

/** Text that compresses about as a search index does. */
const text = (i: number) => Buffer.from(Array.from({ length: 4000 }, (_, k) => `"${i}-${k}":{"t":"word ${(k * 7919) % 1013}"}`).join(','));

test('a file whose gzip is within the bound comes back whole, with the forms compressAsset makes of it, small or large', async () => {
  for (const count of [1, 20]) {
    const { parts } = madeOnRead(text, count);
    const whole = Buffer.concat(Array.from({ length: count }, (_, i) => text(i)));
    const expected = await compressAsset(whole);
    const found = await compressedWithin(parts, expected.gz.length);
    assert.ok(found, `${whole.length} bytes`);
    assert.ok(found.bytes.equals(whole));
    assert.ok(found.gz.equals(expected.gz), 'the same gzip, made in chunks');
    assert.ok(found.br.equals(expected.br));
    assert.ok(gunzipSync(found.gz).equals(whole) && brotliDecompressSync(found.br).equals(whole));
  }
});

test('a file whose gzip is one byte over the bound is null', async () => {
  for (const count of [1, 20]) {
    const whole = Buffer.concat(Array.from({ length: count }, (_, i) => text(i)));
    const { gz } = await compressAsset(whole);
    assert.equal(await compressedWithin(madeOnRead(text, count).parts, gz.length - 1), null);
  }
});

test('a large file is given up once its gzip is over the bound: the rest of it is never made', async () => {
  // Bytes that do not compress: the gzip is over 1 MiB once about 1 MiB has been read.
  const chunks = 64;
  const { parts, made } = madeOnRead(() => randomBytes(256 * 1024), chunks);
  assert.equal(await compressedWithin(parts, 1024 * 1024), null);
  assert.ok(made.count < chunks / 4, `${made.count} of ${chunks} chunks made`);
});
