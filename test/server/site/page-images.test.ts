import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { ROOT, startServer, type RunningServer } from '../../helpers/server.ts';

// The images of the default site's Markdown reference page, as `npm run build` made them
// and the built server sends them: what a reader's browser fetches from the page's HTML.
let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

/** `compressed`: ask for br or gzip, as browsers do (the pages are then compressed; images never are). */
function getBytes(
  path: string,
  compressed = true,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, headers: compressed ? { 'Accept-Encoding': 'br, gzip' } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

async function pageImages(path: string) {
  const page = await getBytes(path, false);
  assert.equal(page.status, 200, path);
  const html = page.body.toString();
  const imgs = [...html.matchAll(/<img src="([^"]+)" alt="([^"]*)" width="(\d+)" height="(\d+)" loading="lazy" decoding="async">/g)];
  const srcsets = [...html.matchAll(/<source type="image\/webp" srcset="([^"]+)"/g)].map((match) =>
    match[1]!.split(', ').map((candidate) => {
      const [src, width] = candidate.split(' ');
      return { src: src!, width: Number(width!.slice(0, -1)) };
    }),
  );
  return { imgs, srcsets };
}

test('every locale shows the reference page images, an SVG and a PNG, at their own size', async () => {
  for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
    const { imgs } = await pageImages(`/${locale}/docs/markdown`);
    assert.deepEqual(
      imgs.map((match) => [match[1]!.replace(/[0-9A-F]{8}/, 'HASH'), match[3], match[4]]),
      [
        ['/assets/en-images-locales-diagram-HASH.svg', '640', '240'],
        ['/assets/en-images-request-flow-HASH.png', '1600', '600'],
      ],
      locale,
    );
    for (const match of imgs) assert.ok(match[2]!.length > 5, `${locale}: alt text`);
  }
});

test('page images are served immutable with their type, the SVG as it is in the locale folder', async () => {
  const { imgs } = await pageImages('/en/docs/markdown');
  const [svg, png] = imgs.map((match) => match[1]!);
  const svgResponse = await getBytes(svg!);
  assert.equal(svgResponse.status, 200);
  assert.equal(svgResponse.headers['content-type'], 'image/svg+xml');
  assert.match(svgResponse.headers['cache-control'] as string, /max-age=31536000,\s*immutable/);
  const pngResponse = await getBytes(png!);
  assert.equal(pngResponse.status, 200);
  assert.equal(pngResponse.headers['content-type'], 'image/png');
  assert.match(pngResponse.headers['cache-control'] as string, /max-age=31536000,\s*immutable/);
  assert.deepEqual(pngResponse.body, readFileSync(join(ROOT, 'locales/en/images/request-flow.png')));
});

test('the WebP versions in the srcset are served immutable as image/webp, each as wide as it says', async () => {
  const { srcsets } = await pageImages('/ar/docs/markdown');
  assert.equal(srcsets.length, 1);
  assert.deepEqual(
    srcsets[0]!.map((candidate) => candidate.width),
    [640, 1280, 1600],
  );
  for (const { src, width } of srcsets[0]!) {
    const response = await getBytes(src);
    assert.equal(response.status, 200, src);
    assert.equal(response.headers['content-type'], 'image/webp');
    assert.match(response.headers['cache-control'] as string, /max-age=31536000,\s*immutable/);
    const size = imageSize(response.body);
    assert.deepEqual([size.type, size.width, size.height], ['webp', width, Math.round((600 * width) / 1600)], src);
  }
});
