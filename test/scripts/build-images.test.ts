import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildImages, readImageSize } from '../../scripts/build-images.ts';

// Real encoder output (Chromium's canvas.toBlob): a 17x9 PNG, a 33x21 baseline JPEG, a 10x12 WebP.
const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const PNG = fixture('tiny.png');
const JPEG = fixture('tiny.jpg');
const WEBP = fixture('tiny.webp');

describe('readImageSize', () => {
  test('reads the width and height of a PNG, a JPEG and a WebP from their headers', () => {
    assert.deepEqual(readImageSize(PNG, 'de/share.png'), { width: 17, height: 9 });
    assert.deepEqual(readImageSize(JPEG, 'en/images/photo.jpg'), { width: 33, height: 21 });
    assert.deepEqual(readImageSize(JPEG, 'en/images/photo.JPEG'), { width: 33, height: 21 });
    assert.deepEqual(readImageSize(WEBP, 'en/images/photo.webp'), { width: 10, height: 12 });
  });

  for (const [what, bytes] of [
    ['an empty file', Buffer.alloc(0)],
    ['text', Buffer.from('not an image at all, just some words')],
    ['a PNG cut off inside its header', PNG.subarray(0, 20)],
    ['a JPEG cut off before its frame header', JPEG.subarray(0, 24)],
    // The headers are whole, so the size is readable: the end is what is missing.
    ['a PNG cut off in its image data', PNG.subarray(0, PNG.length - 40)],
    ['a JPEG cut off in its image data', JPEG.subarray(0, JPEG.length - 40)],
    ['a WebP cut off in its image data', WEBP.subarray(0, WEBP.length - 40)],
  ] as const) {
    test(`rejects ${what}, naming the file`, () => {
      for (const name of ['broken.png', 'broken.jpg', 'broken.webp']) {
        assert.throws(
          () => readImageSize(bytes, `locales/de/images/${name}`),
          new RegExp(`^Error: locales/de/images/${name.replace('.', '\\.')}: `),
        );
      }
    });
  }

  test('rejects an image whose extension names another type, since the asset is served by its extension', () => {
    assert.throws(() => readImageSize(JPEG, 'locales/fr/share.png'), /locales\/fr\/share\.png: the file is jpg, not PNG/);
    assert.throws(() => readImageSize(PNG, 'locales/fr/images/a.webp'), /locales\/fr\/images\/a\.webp: the file is png, not WebP/);
  });

  test('rejects a file that is not an image the site can show, by its extension', () => {
    assert.throws(
      () => readImageSize(PNG, 'locales/fr/images/logo.bmp'),
      /locales\/fr\/images\/logo\.bmp: not a PNG, JPEG, WebP, GIF, AVIF or SVG/,
    );
  });
});

describe('buildImages', () => {
  function makeTree(files: Record<string, Buffer>): { localesDir: string; assetsDir: string } {
    const root = mkdtempSync(join(tmpdir(), 'polysite-images-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(root, 'locales', path)), { recursive: true });
      writeFileSync(join(root, 'locales', path), bytes);
    }
    mkdirSync(join(root, 'assets'));
    return { localesDir: join(root, 'locales'), assetsDir: join(root, 'assets') };
  }

  test('copies share images and images/ (sub-folders too) under hashed names, keyed by source path with their size', async () => {
    const { localesDir, assetsDir } = makeTree({
      'en/share.png': PNG,
      'en/images/launch.jpg': JPEG,
      'en/images/posts/Launch Day.webp': WEBP,
      'de/share.png': PNG,
      'de/images/.DS_Store': Buffer.from('finder junk'),
      'fr/messages.json': Buffer.from('{}'),
    });
    const warnings: string[] = [];
    const images = await buildImages(localesDir, ['en', 'de', 'fr'], assetsDir, { warn: (message) => warnings.push(message) });
    assert.deepEqual(warnings, ["locales/fr/share.png is missing: its pages share en's image (npm run share-images makes one per locale)"]);
    assert.deepEqual(Object.keys(images).sort(), [
      'de/share.png',
      'en/images/launch.jpg',
      'en/images/posts/Launch Day.webp',
      'en/share.png',
    ]);
    assert.deepEqual(images['en/images/launch.jpg'], { path: images['en/images/launch.jpg']!.path, width: 33, height: 21 });
    assert.match(images['en/share.png']!.path, /^\/assets\/en-share-[0-9A-F]{8}\.png$/);
    assert.match(images['en/images/posts/Launch Day.webp']!.path, /^\/assets\/en-images-posts-Launch-Day-[0-9A-F]{8}\.webp$/);
    // Same bytes, same hash: the locale in the name keeps the two apart.
    assert.notEqual(images['de/share.png']!.path, images['en/share.png']!.path);
    for (const [source, image] of Object.entries(images)) {
      assert.deepEqual(readFileSync(join(assetsDir, image.path.replace('/assets/', ''))), readFileSync(join(localesDir, source)), source);
    }
    assert.equal(readdirSync(assetsDir).length, 4);
  });

  test('a new version of an image gets a new name, so the year-long immutable cache never serves the old one', async () => {
    const first = await buildImages(makeTree({ 'en/share.png': PNG }).localesDir, ['en'], makeTree({}).assetsDir);
    const changed = Buffer.from(PNG);
    changed[changed.length - 20] = changed.at(-20)! ^ 1;
    const second = await buildImages(makeTree({ 'en/share.png': changed }).localesDir, ['en'], makeTree({}).assetsDir);
    assert.notEqual(first['en/share.png']!.path, second['en/share.png']!.path);
  });

  test('an image it cannot read fails the build, naming the file under the locales folder', async () => {
    const { localesDir, assetsDir } = makeTree({ 'en/share.png': PNG, 'ja/images/broken.png': PNG.subarray(0, 30) });
    await assert.rejects(
      () => buildImages(localesDir, ['en', 'ja'], assetsDir),
      /^Error: locales\/ja\/images\/broken\.png: the file is cut off/,
    );
  });
});
