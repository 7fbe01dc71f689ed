import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache, RenderCache } from '../../../src/server/http/bounded-cache.ts';
import { gunzipSync } from 'node:zlib';
import { BodyArena, StoredBody } from '../../../src/server/http/stored-body.ts';

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

test('a body kept in an arena is the same bytes given whole, in pieces or as text, and so are its compressed forms', () => {
  const text = `<p>${'Grüße, مرحبا, 🎉 '.repeat(200)}</p>`;
  const arena = new BodyArena();
  const whole = Buffer.from(text);
  const bodies = [
    new StoredBody(whole, arena),
    new StoredBody([whole.subarray(0, 1001), whole.subarray(1001)], arena),
    new StoredBody(text, arena),
  ];
  for (const body of bodies) {
    assert.equal(body.get('identity').toString(), text);
    assert.equal(gunzipSync(body.get('gzip')).toString(), text);
  }
});

test('an arena keeps bodies side by side in one slab, each intact, and a large body on its own', () => {
  const arena = new BodyArena();
  const a = new StoredBody(Buffer.from('a'.repeat(1000)), arena).identity;
  const b = new StoredBody(Buffer.from('b'.repeat(1000)), arena).identity;
  assert.equal(a.buffer, b.buffer, 'one slab');
  assert.equal(a.buffer.byteLength, BodyArena.SLAB_BYTES);
  assert.equal(a.toString(), 'a'.repeat(1000), 'writing b left a alone');
  const large = new StoredBody(Buffer.alloc(BodyArena.SLAB_BYTES / 2, 1), arena).identity;
  assert.equal(large.buffer.byteLength, large.length, 'a large body owns exactly its bytes');
  // Filling the slab starts another; what is in the first stays as it was.
  const filler = Buffer.alloc(BodyArena.SLAB_BYTES / 4, 2);
  const kept = Array.from({ length: 5 }, () => new StoredBody(filler, arena).identity);
  assert.notEqual(kept.at(-1)!.buffer, a.buffer);
  assert.equal(a.toString(), 'a'.repeat(1000));
  assert.equal(b.toString(), 'b'.repeat(1000));
  for (const body of kept) assert.ok(body.equals(filler));
});
