import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunksText, Utf8Chunks } from '../../../src/routes/search/utf8-chunks.ts';

// Characters of one to four UTF-8 bytes, so some fall across every chunk's end.
const PIECES = ['a', 'ß', '€', '日本語', '😀', '"quoted"', 'مرحبا', '\n', 'x'.repeat(40)];

function written(count: number, chunkBytes: number): { text: string; sink: Utf8Chunks } {
  const sink = new Utf8Chunks(chunkBytes);
  let text = '';
  for (let i = 0; i < count; i++) {
    const piece = PIECES[(i * 7) % PIECES.length]!.repeat(1 + (i % 3));
    sink.write(piece);
    text += piece;
  }
  return { text, sink };
}

test('text written in pieces comes out as its UTF-8 bytes, whatever the chunk size, no character split across chunks', () => {
  for (const chunkBytes of [4, 5, 7, 64, 1024 * 1024]) {
    const { text, sink } = written(5000, chunkBytes);
    const chunks = sink.chunks();
    assert.deepEqual(Buffer.concat(chunks), Buffer.from(text), `chunks of ${chunkBytes}`);
    for (const chunk of chunks) {
      assert.ok(chunk.length <= chunkBytes);
      // Each chunk decodes alone: it starts and ends on a character's edge.
      assert.equal(Buffer.from(new TextDecoder('utf-8', { fatal: true }).decode(chunk)).length, chunk.length);
    }
    assert.equal(chunksText(chunks), text);
  }
});

test('an appended list follows the bytes written before it, and writing goes on after it', () => {
  const head = new Utf8Chunks(16);
  const middle = new Utf8Chunks(16);
  head.write('before 日本 ');
  middle.write('in the middle 😀 '.repeat(5));
  head.append(middle);
  head.write('after');
  assert.equal(chunksText(head.chunks()), `before 日本 ${'in the middle 😀 '.repeat(5)}after`);
  assert.deepEqual(new Utf8Chunks().chunks(), []);
});
