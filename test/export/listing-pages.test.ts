import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { get } from '../helpers/http.ts';
import { longSectionRoot } from '../helpers/long-section.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { type ExportRun, runExport } from '../helpers/static-host.ts';

// `npm run export` of a site with a section of 260 pages (two listing pages), served by
// the real nginx with the generated configuration, against the real server of the same
// content: the numbered page is a plain file, answered as the server answers it.

let run: ExportRun;
let server: RunningServer;
let nginx: RunningNginx;

before(async () => {
  const env = { LOCALES_DIR: longSectionRoot(260).localesDir, LOCALES: 'en,de,ar', DEFAULT_LOCALE: 'en' };
  run = await runExport(env);
  assert.equal(run.code, 0, run.stderr);
  [server, nginx] = await Promise.all([startServer(env), startNginx(run.out)]);
});
after(async () => {
  await Promise.all([server?.stop(), nginx?.stop()]);
});

test('the export writes each numbered listing page as a file, with its page data', () => {
  for (const file of ['de/docs/gross/~/2.html', 'en/docs/big/~/2.html', 'ar/docs/1.0/big/~/2.html']) {
    assert.ok(existsSync(join(run.out, file)), file);
  }
  assert.ok(!existsSync(join(run.out, 'en/docs/big/~/1.html')), 'page 1 is the section’s own file');
  assert.ok(!existsSync(join(run.out, 'en/docs/mid/~')), 'a listing of one page has no numbered pages');
});

test('nginx answers a numbered page, its ~/1 and a page past the last as the server does, the page byte for byte', async () => {
  const { build } = JSON.parse((await get(server.url, '/healthz')).body);
  for (const [path, status] of [
    ['/de/docs/gross/~/2', 200],
    ['/en/docs/1.0/big/~/2', 200],
    [`/_data/${build}/de/docs/gross/~/2.json`, 200],
    ['/de/docs/gross/~/1', 308],
    ['/de/docs/big/~/2', 308],
    ['/de/docs/gross/~/3', 404],
    ['/de/docs/gross/~/02', 404],
  ] as const) {
    const [served, hosted] = await Promise.all([get(server.url, path), get(nginx.url, path)]);
    assert.equal(served.status, status, `${path}: the server`);
    assert.equal(hosted.status, status, `${path}: nginx`);
    assert.equal(hosted.headers.location, served.headers.location, `${path}: Location`);
    assert.equal(hosted.headers['cache-control'], served.headers['cache-control'], `${path}: Cache-Control`);
    if (status === 200) assert.equal(hosted.body, served.body, `${path}: the same bytes`);
  }
});

test('a numbered page has no Markdown twin: asked for one, nginx answers its HTML, as the server does', async () => {
  const [served, hosted] = await Promise.all([
    get(server.url, '/de/docs/gross/~/2', { Accept: 'text/markdown' }),
    get(nginx.url, '/de/docs/gross/~/2', { Accept: 'text/markdown' }),
  ]);
  assert.equal(served.status, 200);
  assert.equal(hosted.status, 200);
  assert.match(String(hosted.headers['content-type']), /^text\/html/);
  assert.equal(hosted.body, served.body);
});
