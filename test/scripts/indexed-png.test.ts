import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodePng, encodeIndexedPng, type Rgb, toIndexedPng } from '../../scripts/indexed-png.ts';
import { readImageSize } from '../../scripts/build-images.ts';

/** An image of `colours` distinct colours in vertical stripes one pixel wide. */
function stripes(width: number, height: number, colours: number): Rgb {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = x % colours;
      pixels.set([c & 0xff, (c * 7) & 0xff, c >> 8], (y * width + x) * 3);
    }
  }
  return { width, height, pixels };
}

test('reads the pixels of a PNG Chromium wrote (RGBA, filtered rows)', () => {
  // fixtures/tiny.png: 17x9, a gradient from the accent colour (#1d4ed8) at the top left to white.
  const { width, height, pixels } = decodePng(readFileSync(new URL('fixtures/tiny.png', import.meta.url)));
  assert.deepEqual([width, height, pixels.length], [17, 9, 17 * 9 * 3]);
  const distance = (i: number, rgb: number[]) => Math.max(...rgb.map((v, c) => Math.abs(pixels[i * 3 + c]! - v)));
  assert.ok(distance(0, [0x1d, 0x4e, 0xd8]) <= 8, 'top left is the accent colour');
  assert.ok(distance(17 * 9 - 1, [0xff, 0xff, 0xff]) <= 8, 'bottom right is white');
});

test('an image of at most 256 colours becomes a palette PNG with exactly the same pixels', () => {
  const image = stripes(300, 20, 256);
  const png = encodeIndexedPng(image);
  assert.equal(png[25], 3, 'colour type 3 (palette)');
  assert.deepEqual(readImageSize(png, 'stripes.png'), { width: 300, height: 20 });
  assert.deepEqual(decodePng(png).pixels, image.pixels);
  // Decoding a palette PNG and encoding it again changes nothing.
  assert.deepEqual(decodePng(toIndexedPng(png)).pixels, image.pixels);
});

test('an image of more colours keeps the 256 most frequent and maps each other colour to its nearest', () => {
  const image = stripes(300, 4, 256);
  // A 257th colour, one pixel just off the first stripe's black: the rarest, and nearest to black.
  image.pixels.set([1, 0, 0], 0);
  const decoded = decodePng(encodeIndexedPng(image)).pixels;
  assert.deepEqual([...decoded.subarray(0, 3)], [0, 0, 0]);
  assert.deepEqual(decoded.subarray(3), image.pixels.subarray(3));
});
