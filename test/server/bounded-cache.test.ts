import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache, RenderCache } from '../../src/server/bounded-cache.ts';
import { StoredBody } from '../../src/server/compression.ts';

const text = (size: number) => 'x'.repeat(size);

test('the oldest entries go first once the bytes are over the bound', () => {
  const cache = new BoundedCache<string>(10, (value) => value.length);
  cache.set('a', text(4));
  cache.set('b', text(4));
  cache.set('c', text(4));
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('b'), text(4));
  assert.equal(cache.get('c'), text(4));
  assert.equal(cache.bytes, 8);
});

test('setting a key again replaces its value and its count', () => {
  const cache = new BoundedCache<string>(10, (value) => value.length);
  cache.set('a', text(6));
  cache.set('a', text(2));
  assert.equal(cache.bytes, 2);
});

test('a value larger than the bound is not kept', () => {
  const cache = new BoundedCache<string>(10, (value) => value.length);
  cache.set('a', text(11));
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.bytes, 0);
});

test('the render cache counts compressed forms as they are made, and makes room for them', () => {
  const page = () => new StoredBody(Buffer.from(`<p>${'polysite '.repeat(2000)}</p>`));
  const first = page();
  const cache = new RenderCache(first.identity.length * 2);
  cache.set('/en', first);
  cache.set('/de', page());
  assert.equal(cache.bytes, first.identity.length * 2);
  const br = first.get('br').length;
  assert.ok(br > 0);
  assert.equal(cache.get('/en'), undefined, 'the growth pushed the oldest entry out');
  assert.ok(cache.get('/de'));
  assert.equal(cache.bytes, first.identity.length, 'an evicted body no longer counts');
});

test('an evicted body that grows later does not count against the cache', () => {
  const cache = new RenderCache(1_000_000);
  const old = new StoredBody(Buffer.from(text(1000)));
  cache.set('/en', old);
  cache.set('/en', new StoredBody(Buffer.from(text(1000))));
  old.get('gzip');
  assert.equal(cache.bytes, 1000);
});

test('a stored body and its compressed forms own exactly their bytes (no view into a larger buffer)', () => {
  const small = Buffer.from('{"page":1}'); // a view into Node's shared pool
  assert.ok(small.buffer.byteLength > small.length);
  const body = new StoredBody(small);
  for (const encoding of ['identity', 'br', 'gzip'] as const) {
    const bytes = body.get(encoding);
    assert.equal(bytes.buffer.byteLength, bytes.length, encoding);
  }
  assert.equal(body.get('identity').toString(), '{"page":1}');
});
