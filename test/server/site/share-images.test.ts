import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest } from '../../../src/server/site/manifest.ts';
import { ROOT, startServer, type RunningServer } from '../../helpers/server.ts';

/** The default site's share images, as `npm run build` wrote them and the built server sends them. */
const LOCALES = ['en', 'de', 'fr', 'ja', 'ar'];
const manifest = readManifest(join(ROOT, 'dist'));

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

function getBytes(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('the manifest names a 1200x630 share image for every locale, copied into dist under a hashed name', () => {
  for (const locale of LOCALES) {
    const image = manifest.images[`${locale}/share.png`];
    assert.ok(image, `${locale}/share.png in manifest.images`);
    assert.equal(image.width, 1200, locale);
    assert.equal(image.height, 630, locale);
    assert.match(image.path, new RegExp(`^/assets/${locale}-share-[0-9A-F]{8}\\.png$`));
    const file = join(ROOT, 'dist', 'client', image.path);
    assert.ok(existsSync(file), file);
    assert.deepEqual(readFileSync(file), readFileSync(join(ROOT, 'locales', locale, 'share.png')), locale);
  }
});

test('share images are served as image/png, uncompressed, cached for a year and immutable', async () => {
  for (const locale of LOCALES) {
    const image = manifest.images[`${locale}/share.png`]!;
    const response = await getBytes(image.path);
    assert.equal(response.status, 200, image.path);
    assert.equal(response.headers['content-type'], 'image/png');
    assert.match(response.headers['cache-control'] as string, /max-age=31536000,\s*immutable/);
    // PNG data is already deflated: the build writes no .br/.gz siblings, so the bytes are the file's.
    assert.equal(response.headers['content-encoding'], undefined);
    assert.deepEqual(response.body, readFileSync(join(ROOT, 'locales', locale, 'share.png')));
  }
});

test('an image name the build did not write is a 404 under /assets, not a page', async () => {
  const response = await getBytes(manifest.images['de/share.png']!.path.replace(/-[0-9A-F]{8}\.png$/, '-00000000.png'));
  assert.equal(response.status, 404);
});
