import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { removeExport, runExport, serveStatic, type ExportRun, type StaticHost } from '../helpers/static-host.ts';

/**
 * `npm run export` of the default site, served by a static file server from npm
 * (sirv, set up as the hosts are: `/x` from `x.html`, `_headers` applied, a
 * locale's 404 page for a missing path), against the real server of the same build.
 */
const CRAWLER = { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
const locales = ['en', 'ar', 'de', 'fr', 'ja'];

let run: ExportRun;
let server: RunningServer;
let host: StaticHost;
let build: string;

before(async () => {
  run = await runExport();
  assert.equal(run.code, 0, run.stderr);
  [server, host] = await Promise.all([startServer(), serveStatic(run.out)]);
  build = JSON.parse((await fetchBytes(server.url, '/healthz')).body.toString()).build;
});
after(async () => {
  await Promise.all([server?.stop(), host?.close()]);
  if (run) removeExport(run.out);
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A GET with no compression, the path sent as given, the body as bytes. */
function fetchBytes(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, headers: { 'Accept-Encoding': 'identity', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** Every exported page document: its URL (as the server's paths are written, percent-encoded) and file. */
function exportedPages(): { path: string; file: string }[] {
  const special = new Set(['index.html', '404.html', ...locales.flatMap((locale) => [`${locale}/404.html`, `${locale}/search.html`])]);
  return (readdirSync(run.out, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.html') && !special.has(file))
    .map((file) => ({ path: `/${file.slice(0, -'.html'.length).split('/').map(encodeURIComponent).join('/')}`, file }));
}

async function sitemapPaths(): Promise<string[]> {
  const sitemap = (await fetchBytes(server.url, '/sitemap.xml')).body.toString();
  return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
}

describe('npm run export', () => {
  test("writes every docs version: an older version's pages, page data, twins, llms.txt and search index are the server's bytes", async () => {
    const manifest = JSON.parse(readFileSync(join('dist', 'manifest.json'), 'utf8'));
    const paths = [
      '/de/docs/0.1/anleitungen/installation',
      `/_data/${build}/de/docs/0.1/anleitungen/installation.json`,
      '/de/docs/0.1/anleitungen/installation.md',
      '/ja/docs/0.1/llms.txt',
      manifest.search['ar@0.1'],
    ];
    for (const path of paths) {
      const [exported, served] = await Promise.all([fetchBytes(host.url, path), fetchBytes(server.url, path, CRAWLER)]);
      assert.equal(exported.status, 200, path);
      assert.ok(exported.body.equals(served.body), path);
    }
  });

  test('prints the page count, the files and bytes written and the time it took', () => {
    assert.match(
      run.stdout,
      /^exported \d+ pages \(5 locales\) to .+: [\d,]+ files, [\d.]+ MB \([\d,]+ bytes\) in [\d.]+ s; peak memory \d+ MB\n$/,
    );
    const pages = Number(/exported (\d+) pages/.exec(run.stdout)![1]);
    assert.equal(pages, exportedPages().length);
    assert.doesNotMatch(run.stderr, /PUBLIC_URL is not set/);
  });

  test("every exported page is the server's document for its URL, byte for byte (crawler mode)", async () => {
    const pages = exportedPages();
    assert.ok(pages.length >= 80, `${pages.length} pages`);
    for (const { path, file } of pages) {
      const served = await fetchBytes(server.url, path, CRAWLER);
      assert.equal(served.status, 200, path);
      assert.ok(served.body.equals(readFileSync(join(run.out, file))), `${path} differs from ${file}`);
    }
  });

  test("every sitemap URL answers 200 on the static host with the server's bytes", async () => {
    const paths = await sitemapPaths();
    assert.ok(paths.length >= 50);
    for (const path of paths) {
      const [exported, served] = await Promise.all([fetchBytes(host.url, path), fetchBytes(server.url, path, CRAWLER)]);
      assert.equal(exported.status, 200, path);
      assert.match(exported.headers['content-type'] as string, /^text\/html/);
      assert.ok(exported.body.equals(served.body), path);
    }
  });

  test('page data answers at the same data URLs, with the same JSON as the server', async () => {
    for (const path of await sitemapPaths()) {
      const url = `/_data/${build}${path}.json`;
      const [exported, served] = await Promise.all([fetchBytes(host.url, url), fetchBytes(server.url, url)]);
      assert.equal(exported.status, 200, url);
      assert.match(exported.headers['content-type'] as string, /^application\/json/);
      assert.ok(exported.body.equals(served.body), url);
      assert.equal(JSON.parse(exported.body.toString()).page.path, path);
    }
  });

  test("each locale's messages, the head script, the sitemap, robots.txt, the bundle and the search indexes are the server's bytes", async () => {
    const manifest = JSON.parse(readFileSync(join('dist', 'manifest.json'), 'utf8'));
    const home = (await fetchBytes(server.url, '/en')).body.toString();
    const messages = JSON.parse(/id="polysite-data">([^<]*)</.exec(home)![1]!).messages as Record<string, string>;
    assert.deepEqual(Object.keys(messages).sort(), [...locales].sort());
    const headScript = /<script src="(\/assets\/head-[0-9A-F]+\.js)">/.exec(home)![1]!;
    const paths = [
      ...Object.values(messages),
      headScript,
      ...locales.map((locale) => `/${locale}/blog/feed.xml`),
      '/sitemap.xml',
      '/robots.txt',
      manifest.js,
      manifest.css,
      ...manifest.preload,
      ...Object.values(manifest.search as Record<string, string>),
    ];
    for (const path of paths) {
      const [exported, served] = await Promise.all([fetchBytes(host.url, path), fetchBytes(server.url, path)]);
      assert.equal(exported.status, 200, path);
      assert.ok(exported.body.equals(served.body), path);
    }
  });

  test("a missing page answers 404 with its locale's not-found page, anywhere else the default locale's", async () => {
    const cases: [string, string, RegExp][] = [
      ['/de/nope', 'de/404.html', /<title>Seite nicht gefunden · polysite<\/title>/],
      ['/ja/docs/nope/deeper', 'ja/404.html', /<html lang="ja" dir="ltr">/],
      ['/ar/nope', 'ar/404.html', /<html lang="ar" dir="rtl">/],
      ['/nope', '404.html', /<html lang="en" dir="ltr">/],
      [`/_data/${build}/en/nope.json`, '404.html', /<title>Page not found · polysite<\/title>/],
    ];
    for (const [path, file, expected] of cases) {
      const answer = await fetchBytes(host.url, path);
      assert.equal(answer.status, 404, path);
      assert.ok(answer.body.equals(readFileSync(join(run.out, file))), path);
      assert.match(answer.body.toString(), expected);
      // It answers for any path, so it names none.
      assert.match(answer.body.toString(), /<meta name="robots" content="noindex">/);
    }
    assert.match(readFileSync(join(run.out, 'fr', '404.html'), 'utf8'), /Il n’y a aucune page à cette adresse/);
  });

  test('the search page answers for any query and, without JavaScript, says search needs it and links the docs', async () => {
    for (const locale of locales) {
      const page = await fetchBytes(host.url, `/${locale}/search?q=anything`);
      assert.equal(page.status, 200);
      const html = page.body.toString();
      assert.match(html, new RegExp(`<noscript><p class="search-empty">[^<]+(<!-- -->)? <a href="/${locale}/docs">`));
      assert.match(html, /"staticHost":true/);
      assert.match(html, /<meta name="robots" content="noindex">/);
    }
    assert.match((await fetchBytes(host.url, '/de/search')).body.toString(), /Die Suche braucht auf dieser Website JavaScript/);
  });

  test('the root is a chooser: a link and an hreflang alternate per locale, and its script as a file (no inline script)', async () => {
    const answer = await fetchBytes(host.url, '/');
    assert.equal(answer.status, 200);
    const html = answer.body.toString();
    for (const locale of locales) {
      assert.match(html, new RegExp(`<a href="/${locale}" hreflang="${locale}" lang="${locale}"`));
      assert.match(html, new RegExp(`<link rel="alternate" hreflang="${locale}" href="https://example.test/${locale}">`));
    }
    assert.match(html, /<link rel="alternate" hreflang="x-default" href="https:\/\/example\.test\/en">/);
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0]![2], '', 'no inline script');
    const src = /src="([^"]+)"/.exec(scripts[0]![1]!)![1]!;
    assert.equal((await fetchBytes(host.url, src)).status, 200);
    // Not in any page's first load.
    assert.doesNotMatch(readFileSync(join(run.out, 'en.html'), 'utf8'), new RegExp(src));
  });

  test("the host answers with the server's security headers and cache policy for each kind of path (_headers)", async () => {
    const manifest = JSON.parse(readFileSync(join('dist', 'manifest.json'), 'utf8'));
    const paths = ['/en/docs', '/ja', `/_data/${build}/fr/docs.json`, manifest.js, '/sitemap.xml', '/robots.txt'];
    const names = [
      'content-security-policy',
      'x-content-type-options',
      'referrer-policy',
      'x-frame-options',
      'permissions-policy',
      'cross-origin-opener-policy',
      'cache-control',
    ];
    for (const path of [...paths, '/de/blog/feed.xml']) {
      const [exported, served] = await Promise.all([fetchBytes(host.url, path), fetchBytes(server.url, path)]);
      for (const name of names) assert.equal(exported.headers[name], served.headers[name], `${path}: ${name}`);
    }
    // A feed is Atom, not the XML its extension would make it.
    const feed = await fetchBytes(host.url, '/de/blog/feed.xml');
    assert.equal(feed.headers['content-type'], 'application/atom+xml; charset=utf-8');
  });

  test("the host files send the default site's localized pages' default paths where the server does", () => {
    const redirects = readFileSync(join(run.out, '_redirects'), 'utf8');
    for (const [from, to] of [
      ['/de/about', '/de/ueber-uns'],
      ['/fr/about', '/fr/a-propos'],
      ['/ja/about', '/ja/%E6%A6%82%E8%A6%81'],
      ['/de/docs/guides/install', '/de/docs/anleitungen/installation'],
    ]) {
      assert.ok(redirects.includes(`${from}  ${to}  301\n`), from);
    }
    assert.ok(!redirects.includes('/en/about  '), 'the default locale moves nothing');
  });

  test('the host files are there: _headers, _redirects, the two nginx files, .nojekyll (GitHub Pages would drop _data)', () => {
    for (const file of ['_headers', '_redirects', 'nginx-http.conf', 'nginx-server.conf', '.nojekyll'])
      assert.ok(existsSync(join(run.out, file)), file);
  });
});

describe('npm run export with monitoring', () => {
  test('embeds the browser SDK settings when SENTRY_DSN is set, and writes the relay proxy with --relay', async () => {
    const relayed = await runExport({ SENTRY_DSN: 'https://publickey:secret@o1.ingest.example.test/42', MONITORING_PATH: '/ingest' }, [
      '--relay',
      'https://relay.example.test',
    ]);
    try {
      assert.equal(relayed.code, 0, relayed.stderr);
      const html = readFileSync(join(relayed.out, 'de', 'docs.html'), 'utf8');
      assert.match(html, /"monitoring":\{"dsn":"https:\/\/publickey@o1\.ingest\.example\.test\/42","tunnel":"\/ingest"/);
      assert.doesNotMatch(html, /secret/);
      assert.match(readFileSync(join(relayed.out, '_redirects'), 'utf8'), /^\/ingest {2}https:\/\/relay\.example\.test\/ingest {2}200!$/m);
      assert.match(
        readFileSync(join(relayed.out, 'nginx-server.conf'), 'utf8'),
        /location = \/ingest \{\n {8}proxy_pass https:\/\/relay\.example\.test;/,
      );
    } finally {
      removeExport(relayed.out);
    }
    // Without a relay, nothing is sent anywhere: no monitoring settings in any page.
    assert.doesNotMatch(readFileSync(join(run.out, 'de', 'docs.html'), 'utf8'), /"monitoring"/);
  });

  test('without --relay, it says where the reports go and that the path needs proxying', async () => {
    const unrelayed = await runExport({ SENTRY_DSN: 'https://publickey@o1.ingest.example.test/42' });
    removeExport(unrelayed.out);
    assert.equal(unrelayed.code, 0);
    assert.match(unrelayed.stderr, /SENTRY_DSN is set: pages send browser errors to \/monitoring .*SERVE=relay/);
  });
});

describe('npm run export with a small LLMS_FULL_MAX_KB', () => {
  test("writes each section's full file where llms-full.txt links it, under the locale's own paths", async () => {
    const split = await runExport({ LLMS_FULL_MAX_KB: '8' });
    try {
      assert.equal(split.code, 0, split.stderr);
      const full = readFileSync(join(split.out, 'de', 'llms-full.txt'), 'utf8');
      const links = [...full.matchAll(/\]\(https:\/\/example\.test(\/[^)]+\/llms-full[^)]*\.txt)\)/g)].map((match) => match[1]!);
      assert.ok(links.includes('/de/docs/anleitungen/llms-full.txt'), full);
      for (const link of links) {
        const file = join(split.out, decodeURIComponent(link));
        assert.ok(existsSync(file), link);
        assert.match(readFileSync(file, 'utf8'), /^# .+\n\n---\ntitle: /, link);
      }
    } finally {
      removeExport(split.out);
    }
  });
});

describe('npm run export refuses', () => {
  test('to empty a folder that holds anything but an earlier export, and leaves it as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'polysite-not-export-'));
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    mkdirSync(join(dir, 'sub'));
    const refused = await runExport({}, ['--out', dir]);
    try {
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^polysite export: .* is not empty and holds no earlier export: choose another folder with --out\n$/);
      assert.deepEqual(readdirSync(dir).sort(), ['keep.txt', 'sub']);
    } finally {
      removeExport(dir);
    }
  });

  test('without a build, or into a file, with one line and no stack; an earlier export stays as it was', async () => {
    const noBuild = await runExport({ DIST_DIR: join(tmpdir(), 'polysite-no-such-build') }, ['--out', run.out]);
    assert.equal(noBuild.code, 1);
    assert.match(noBuild.stderr, /^polysite export: .*manifest\.json is missing or unreadable: run `npm run build` first\n$/);
    assert.ok(readdirSync(run.out).includes('index.html'), 'the earlier export is still there');
    const file = join(mkdtempSync(join(tmpdir(), 'polysite-file-')), 'a-file');
    writeFileSync(file, 'not a folder');
    const intoFile = await runExport({}, ['--out', file]);
    assert.equal(intoFile.code, 1);
    assert.match(intoFile.stderr, /^polysite export: ENOTDIR: not a directory, scandir '.*a-file'\n$/);
    assert.doesNotMatch(intoFile.stderr, /\n\s+at /);
  });

  test('a --relay that is not an origin, with one line', async () => {
    const refused = await runExport({}, ['--relay', 'https://relay.example.test/path']);
    removeExport(refused.out);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^polysite export: --relay: an origin only/);
  });

  test('to overwrite nothing but an earlier export: a second export into the same folder replaces the first', async () => {
    const again = await runExport({}, ['--out', run.out]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(relative(run.out, again.out), '');
  });
});
