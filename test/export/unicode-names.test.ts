import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { get } from '../helpers/http.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { type ExportRun, removeExport, runExport, serveHostFiles, type StaticHost } from '../helpers/static-host.ts';
import { makeAccentedSite, wire } from '../helpers/unicode-site.ts';

// `npm run export` of a site whose file and folder names are saved decomposed (NFD, as macOS
// saves them) and whose slugs are accented: the files, the sitemap and the links are NFC, and
// the NFD spelling of each page is one redirect to its NFC path on the server, on the real nginx
// with the generated configuration and on a host reading _redirects (301 there, as documented).

let run: ExportRun;
let server: RunningServer;
let nginx: RunningNginx;
let host: StaticHost;

before(async () => {
  const env = { LOCALES_DIR: makeAccentedSite(), LOCALES: 'en,de,fr', DEFAULT_LOCALE: 'en' };
  run = await runExport(env);
  assert.equal(run.code, 0, run.stderr);
  [server, nginx, host] = await Promise.all([startServer(env), startNginx(run.out), serveHostFiles(run.out)]);
});
after(async () => {
  await Promise.all([server?.stop(), nginx?.stop(), host?.close()]);
  if (run) removeExport(run.out);
});

const PAGES = ['/en/docs/größe', '/en/docs/übersicht', '/en/docs/übersicht/start', '/de/dokumentation-für-alle/größe', '/de/über-uns'];

test('every exported file is named in NFC, at the NFC path of its page; the sitemap and links say NFC', () => {
  const files = readdirSync(run.out, { recursive: true }) as string[];
  for (const file of files) assert.equal(file, file.normalize('NFC'), JSON.stringify(file));
  for (const path of PAGES) assert.ok(files.includes(`${path.slice(1)}.html`.normalize('NFC')), path);
  const sitemap = readFileSync(join(run.out, 'sitemap.xml'), 'utf8');
  // The German größe is the English page served in German: the sitemap leaves such fallbacks out.
  for (const path of PAGES.filter((path) => !path.endsWith('/größe') || path.startsWith('/en')))
    assert.ok(sitemap.includes(`https://example.test${wire(path, 'NFC')}<`), path);
  assert.doesNotMatch(sitemap, /%CC%88/);
  const install = readFileSync(join(run.out, 'en/docs/install.html'), 'utf8');
  assert.ok(install.includes(`href="${wire('/en/docs/größe', 'NFC')}"`));
});

test('the NFC path is the page on the server, nginx and the _redirects host; the NFD spelling one redirect to it', async () => {
  for (const path of PAGES) {
    const nfc = wire(path, 'NFC');
    const nfd = wire(path, 'NFD');
    assert.notEqual(nfd, nfc);
    for (const base of [server.url, nginx.url, host.url]) assert.equal((await get(base, nfc)).status, 200, `${base}${nfc}`);
    const [served, proxied, hosted] = await Promise.all([server.url, nginx.url, host.url].map((base) => get(base, `${nfd}?a=1`)));
    for (const [answer, status] of [
      [served, 308],
      [proxied, 308],
      [hosted, 301],
    ] as const) {
      assert.equal(answer!.status, status, nfd);
      assert.equal(answer!.headers.location, `${nfc}?a=1`, nfd);
    }
  }
});
