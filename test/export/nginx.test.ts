import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ALWAYS_HEADERS, HTTPS_ONLY_HEADER } from '../../src/server/http/security-headers.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { sharedExport, type ExportRun } from '../helpers/static-host.ts';
import { URL_CASES } from './url-cases.ts';

/**
 * The real nginx serving `npm run export` with the generated configuration, against the
 * real server of the same build, URL by URL: the same status, Location, Content-Type,
 * cache policy and security headers, each once. Where the README documents a difference
 * (the body of a not-found page, `/healthz`, the search page's query checks), the case
 * says so.
 */
let run: ExportRun;
let server: RunningServer;
let nginx: RunningNginx;
let build: string;

before(async () => {
  run = await sharedExport();
  assert.equal(run.code, 0, run.stderr);
  [server, nginx] = await Promise.all([startServer(), startNginx(run.out)]);
  build = JSON.parse((await get(server.url, '/healthz')).body.toString()).build;
});
after(async () => {
  await Promise.all([server?.stop(), nginx?.stop()]);
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; raw: string[]; body: Buffer };

/** A GET with the path sent byte for byte as given (raw UTF-8 included), the body as bytes. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    request(
      // Node writes the request line as latin1: the UTF-8 bytes go out as they are.
      {
        host: url.hostname,
        port: url.port,
        path: Buffer.from(path).toString('latin1'),
        headers: { 'Accept-Encoding': 'identity', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders, body: Buffer.concat(chunks) }));
      },
    )
      .on('error', reject)
      .end();
  });
}

/** Every value a header has in an answer (each line of it). */
function values(answer: Answer, name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < answer.raw.length; i += 2) if (answer.raw[i]!.toLowerCase() === name.toLowerCase()) found.push(answer.raw[i + 1]!);
  return found;
}

const SECURITY = ALWAYS_HEADERS.map(([name]) => name);

/** What must match between the server and nginx for a URL. */
async function compare(path: string, headers: Record<string, string> = {}, asServed = path): Promise<{ served: Answer; hosted: Answer }> {
  const [served, hosted] = await Promise.all([get(server.url, asServed, headers), get(nginx.url, path, headers)]);
  assert.equal(hosted.status, served.status, `${path}: status`);
  // A redirect's body is the host's own (nginx: a short HTML page; the server: one line of text).
  const compared = served.status >= 300 && served.status < 400 ? ['Location'] : ['Location', 'Content-Type'];
  for (const name of [...compared, 'Cache-Control', ...SECURITY]) {
    assert.deepEqual(values(hosted, name), values(served, name), `${path}: ${name}`);
  }
  // Over http, neither sends HSTS.
  assert.deepEqual(values(hosted, HTTPS_ONLY_HEADER[0]), [], `${path}: no HSTS over http`);
  if (values(served, 'Vary').some((vary) => /Accept-Language/.test(vary))) {
    assert.deepEqual(values(hosted, 'Vary'), values(served, 'Vary'), `${path}: Vary`);
  }
  return { served, hosted };
}

describe('nginx serving the export, against the server', () => {
  test("every page, its page data and its other spellings: the server's answers", async () => {
    const sitemap = (await get(server.url, '/sitemap.xml')).body.toString();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    assert.ok(paths.length >= 50);
    for (const path of paths) {
      const { hosted, served } = await compare(path);
      assert.equal(hosted.status, 200, path);
      assert.ok(hosted.body.equals((await get(server.url, path, { 'User-Agent': 'Googlebot/2.1' })).body) || served.status === 200, path);
      await compare(`/_data/${build}${path}.json`);
      await compare(`${path}/`);
      await compare(`${path}.html`);
      await compare(`/${path.slice(1).toUpperCase()}`);
    }
  });

  for (const { path, what } of URL_CASES) {
    test(`${path}${what ? ` (${what})` : ''}`, async () => {
      await compare(path);
    });
  }

  test('llms.txt, llms-full.txt and the twins: written by the export, the same bytes as the server sends', async () => {
    for (const path of [
      '/llms.txt',
      '/ar/llms.txt',
      '/de/llms-full.txt',
      '/de/ueber-uns.md',
      '/ja/%E6%A6%82%E8%A6%81.md',
      '/en/index.md',
    ]) {
      const { served, hosted } = await compare(path);
      assert.equal(hosted.status, 200, path);
      assert.ok(hosted.body.equals(served.body), `${path}: body`);
    }
  });

  test('raw UTF-8 in the path: one 308 to the canonical path (the server refuses such a request line with 400; browsers escape it)', async () => {
    assert.equal((await get(server.url, '/ja/概要')).status, 400);
    await compare('/ja/概要', {}, '/ja/%e6%a6%82%e8%a6%81');
    await compare('/ja/概要/?a=1', {}, '/ja/%e6%a6%82%e8%a6%81/?a=1');
  });

  test('/ and paths under no locale follow the locale cookie, then Accept-Language', async () => {
    for (const headers of [{ Cookie: 'locale=de' }, { 'Accept-Language': 'ja-JP,ja;q=0.9' }, { 'Accept-Language': 'fr' }] as Record<
      string,
      string
    >[]) {
      for (const path of ['/', '/about', '/docs/guides/install?x=1', '/nope']) await compare(path, headers);
    }
  });

  test("the hashed assets, each locale's messages and search index, the head script: cached for a year, the server's type", async () => {
    const manifest = JSON.parse(readFileSync(join('dist', 'manifest.json'), 'utf8'));
    const home = (await get(server.url, '/en')).body.toString();
    const messages = JSON.parse(/id="polysite-data">([^<]*)</.exec(home)![1]!).messages as Record<string, string>;
    for (const path of [
      /<script src="(\/assets\/head-[0-9A-F]+\.js)">/.exec(home)![1]!,
      manifest.js,
      manifest.css,
      ...Object.values(messages),
      ...Object.values(manifest.search as Record<string, string>),
    ]) {
      const { hosted } = await compare(path);
      assert.equal(hosted.status, 200, path);
    }
  });

  test('host files hold no machine path, and nothing the operator sets (root, listen)', () => {
    for (const file of ['nginx-http.conf', 'nginx-server.conf', '_headers', '_redirects']) {
      const text = readFileSync(join(run.out, file), 'utf8');
      assert.ok(!text.includes(run.out), `${file} names the export folder`);
      assert.doesNotMatch(text, /^\s*(root|listen)\s/m, file);
      assert.doesNotMatch(text, /127\.0\.0\.1|localhost/, file);
    }
  });

  test('compressed answers say Vary: Accept-Encoding, feeds included, and compress behind a proxy too', async () => {
    for (const path of ['/en/docs', '/de/blog/feed.xml', '/sitemap.xml', `/_data/${build}/en/docs.json`]) {
      // A page varies by Accept too (HTML or its Markdown twin): one header line each in nginx, one list on the server.
      const vary = path === '/en/docs' ? ['Accept', 'Accept-Encoding'] : ['Accept-Encoding'];
      for (const headers of [{ 'Accept-Encoding': 'gzip' }, { 'Accept-Encoding': 'gzip', Via: '1.1 cdn' }] as Record<string, string>[]) {
        const hosted = await get(nginx.url, path, headers);
        assert.equal(hosted.headers['content-encoding'], 'gzip', `${path} ${JSON.stringify(headers)}`);
        assert.deepEqual(values(hosted, 'Vary').sort(), vary, path);
      }
      assert.deepEqual(values(await get(nginx.url, path), 'Vary').sort(), vary, `${path} uncompressed`);
    }
  });

  test("Accept: text/markdown on a page's URL: the twin, as the server answers it, with Vary: Accept", async () => {
    for (const path of ['/en/docs', '/en', '/de/ueber-uns', '/ja/%E6%A6%82%E8%A6%81', '/ar/docs']) {
      for (const accept of [
        'text/markdown',
        'text/markdown, text/html;q=0.9',
        'text/html, text/markdown',
        'text/markdown;q=0, */*',
        '*/*',
      ]) {
        const { served, hosted } = await compare(path, { Accept: accept });
        assert.equal(hosted.status, 200, `${path} ${accept}`);
        assert.ok(values(hosted, 'Vary').includes('Accept'), `${path} ${accept}: Vary`);
        if (/^text\/markdown(,|$)/.test(accept)) assert.ok(hosted.body.equals(served.body), `${path} ${accept}: the twin`);
      }
    }
    // A missing page is the not-found page, whatever Accept says.
    const missing = await compare('/en/nope', { Accept: 'text/markdown' });
    assert.equal(missing.hosted.status, 404);
  });

  test("nginx's own refusals are never cacheable: no-store, with the security headers once", async () => {
    // Headers over nginx's buffers (the server answers 431; nginx 400), and a path over its request line limit.
    const cookie = await get(nginx.url, '/en/docs', { Cookie: `a=${'x'.repeat(40_000)}` });
    assert.equal(cookie.status, 400);
    const long = await get(nginx.url, `/en/${'a'.repeat(20_000)}`);
    assert.equal(long.status, 414);
    for (const answer of [cookie, long]) {
      assert.deepEqual(values(answer, 'Cache-Control'), ['no-store']);
      for (const name of SECURITY) assert.equal(values(answer, name).length, 1, name);
    }
  });

  test('nginx logged no error', () => {
    assert.doesNotMatch(nginx.errorLog(), /\[(error|crit|alert|emerg)\]/);
  });
});
