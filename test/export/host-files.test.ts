import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALWAYS_HEADERS } from '../../src/server/http/security-headers.ts';
import { get, type RawResponse } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { parseRedirectsFile, serveHostFiles, sharedExport, type ExportRun, type StaticHost } from '../helpers/static-host.ts';
import { URL_CASES } from './url-cases.ts';

/**
 * The export's `_headers` and `_redirects` (Netlify, Cloudflare Pages), read by a static host
 * as Netlify reads them (test/helpers/static-host.ts: serveHostFiles), against the real server
 * of the same build, URL by URL over HTTP: every page of the sitemap and its page data, and the
 * URL cases nginx is held to (url-cases.ts). The same status and Location; for what is not a
 * redirect, the same Content-Type, Cache-Control and security headers, each once. Where the
 * README documents a difference, the case names it (DIFFERENCES) and the test holds the host to
 * that instead.
 */
let run: ExportRun;
let server: RunningServer;
let host: StaticHost;
let build: string;

before(async () => {
  run = await sharedExport();
  assert.equal(run.code, 0, run.stderr);
  [server, host] = await Promise.all([startServer(), serveHostFiles(run.out)]);
  build = JSON.parse((await get(server.url, '/healthz')).body).build;
});
after(async () => {
  await Promise.all([server?.stop(), host?.close()]);
});

/**
 * The README's differences on these hosts (its "What differs from the server" list):
 * - `301`: a redirect the server answers with 308 is a 301, to the same place;
 * - `two hops`: a miscased or unlocalized path that is also a moved page: a redirect to a path that redirects again;
 * - `as a file`: another spelling of a path (lower-case or needless escapes, a trailing slash, `.html`)
 *   is answered as the file it names (200), or the host's not-found page when it names none;
 * - `not-found policy`: a not-found answer has the Cache-Control of its path's kind, not the server's
 *   shorter not-found one (the host decides headers by path, not by status);
 * - `chooser`: `/` without one of the site's languages first is the chooser page, which picks in the browser;
 * - `empty segment`: a path with an empty segment (`//`) is the host's to normalise: no error, no 308;
 * - `no 409`: another build's page data is a 404 (the client loads the document either way).
 * Types are the host's by file extension (its charset parameter too), except those `_headers` sets.
 */
type Difference = '301' | 'two hops' | 'as a file' | 'empty segment' | 'not-found policy' | 'chooser' | 'no 409';

const DIFFERENCES: Record<string, Difference> = {
  '/ja/%e6%a6%82%e8%a6%81': 'as a file',
  '/ja/%e6%a6%82%e8%a6%81/?a=1': 'as a file',
  '/en/%64ocs': 'as a file',
  '/de/about': '301',
  '/DE/about/': 'two hops',
  '/En/docs/': '301',
  '/en//docs': 'empty segment',
  '//en/docs': 'empty segment',
  '/en/': 'as a file',
  '/EN': '301',
  '/En/nope/': '301',
  '/en/nope': 'not-found policy',
  '/ar/docs/nope/deeper': 'not-found policy',
  '/en/docs.html': 'as a file',
  '/en/404.html': 'not-found policy',
  '/de/404.html': 'not-found policy',
  '/': 'chooser',
  '/?a=b': 'chooser',
  '/en/search.html': 'as a file',
  '/de/blog/feed.xml/': 'as a file',
  '/de/docs/0.1/guides/install': '301',
  '/ja/docs/0.1/': 'as a file',
  '/fr/docs/9.9/routing': 'not-found policy',
  '/en/nope.md': 'not-found policy',
  '/assets/nope.js': 'not-found policy',
  '/assets/': 'not-found policy',
  '/_data/x/en.json': 'no 409',
};

const SECURITY = ALWAYS_HEADERS.map(([name]) => name.toLowerCase());
const isRedirect = (status: number) => status >= 300 && status < 400;
const one = (answer: RawResponse, name: string) => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};
/** The media type; the charset parameter is the host's own. */
const mediaType = (answer: RawResponse) => one(answer, 'content-type').map((value) => value.split(';')[0]!.trim().toLowerCase());

function assertSameHeaders(path: string, hosted: RawResponse, served: RawResponse, names: string[]) {
  for (const name of names) assert.deepEqual(one(hosted, name), one(served, name), `${path}: ${name}`);
}

/** The host's answer for a URL against the server's: the same, or as its documented difference says. */
async function compare(path: string, headers: Record<string, string> = {}, difference: Difference | null = DIFFERENCES[path] ?? null) {
  const [served, hosted] = await Promise.all([get(server.url, path, headers), get(host.url, path, headers)]);
  const where = `${path} ${JSON.stringify(headers)}`;
  switch (difference) {
    case null:
      assert.equal(hosted.status, served.status, `${where}: status`);
      assert.equal(hosted.headers.location, served.headers.location, `${where}: Location`);
      // A redirect's body and headers are the host's own.
      if (isRedirect(served.status)) return;
      assert.deepEqual(mediaType(hosted), mediaType(served), `${where}: Content-Type`);
      assertSameHeaders(where, hosted, served, ['cache-control', ...SECURITY]);
      return;
    case '301':
      assert.equal(served.status, 308, where);
      assert.equal(hosted.status, 301, where);
      assert.equal(hosted.headers.location, served.headers.location, `${where}: Location`);
      return;
    case 'two hops': {
      assert.ok(isRedirect(hosted.status), `${where}: a redirect`);
      const next = await get(host.url, hosted.headers.location as string, headers);
      assert.ok(isRedirect(next.status), `${where}: then another`);
      assert.equal(next.headers.location, served.headers.location, `${where}: to the server's Location`);
      return;
    }
    case 'as a file': {
      assert.ok(isRedirect(served.status) || served.status === 404, where);
      assert.ok(hosted.status === 200 || hosted.status === 404, `${where}: ${hosted.status}`);
      assertSameHeaders(where, hosted, served, SECURITY);
      return;
    }
    case 'empty segment':
      assert.equal(served.status, 308, where);
      assert.ok(hosted.status < 500 && hosted.status !== 308, `${where}: ${hosted.status}`);
      return;
    case 'not-found policy':
      assert.equal(hosted.status, served.status, `${where}: status`);
      assert.equal(served.status, 404, where);
      assert.deepEqual(mediaType(hosted), mediaType(served), `${where}: Content-Type`);
      assertSameHeaders(where, hosted, served, SECURITY);
      assert.equal(one(hosted, 'cache-control').length, 1, `${where}: one Cache-Control`);
      return;
    case 'chooser':
      assert.equal(served.status, 302, where);
      assert.equal(hosted.status, 200, where);
      assert.match(hosted.body, /hreflang/, `${where}: the chooser page`);
      assertSameHeaders(where, hosted, served, SECURITY);
      return;
    case 'no 409':
      assert.equal(served.status, 409, where);
      assert.equal(hosted.status, 404, where);
      assertSameHeaders(where, hosted, served, SECURITY);
      return;
  }
}

describe('_headers and _redirects on a static host, against the server', () => {
  test('every page of the sitemap and its page data: 200 on both, with the same type, cache policy and security headers', async () => {
    const sitemap = (await get(server.url, '/sitemap.xml')).body;
    const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    assert.ok(pages.length > 50, `${pages.length} pages`);
    for (const path of pages) {
      await compare(path);
      await compare(`/_data/${build}${path}.json`);
      assert.equal((await get(host.url, path)).status, 200, path);
    }
  });

  for (const { path, what } of URL_CASES) {
    const difference = DIFFERENCES[path];
    test(`${path}${what ? ` (${what})` : ''}${difference ? `: ${difference}` : ''}`, async () => {
      await compare(path);
    });
  }

  test("every page at its default locale's path in a locale that localized it, one 301 to where the server's 308 goes, and two hops with its locale miscased", async () => {
    const rules = parseRedirectsFile(readFileSync(join(run.out, '_redirects'), 'utf8'));
    const moved = rules.filter((rule) => rule.status === 301 && !rule.from.includes('*') && rule.from.split('/').length > 2);
    assert.ok(moved.length >= 10, `${moved.length} moved paths`);
    for (const { from } of moved) {
      await compare(from, {}, '301');
      const [, locale = '', ...rest] = from.split('/');
      await compare(['', locale.toUpperCase(), ...rest].join('/'), {}, 'two hops');
    }
  });

  test("Accept: text/markdown on a page's URL: the server answers the twin, the host the HTML (documented); the twin is at its .md path on both", async () => {
    for (const path of ['/en/docs', '/de/ueber-uns']) {
      const [served, hosted] = await Promise.all([server.url, host.url].map((base) => get(base, path, { Accept: 'text/markdown' })));
      assert.deepEqual([served!.status, mediaType(served!)], [200, ['text/markdown']], path);
      assert.deepEqual([hosted!.status, mediaType(hosted!)], [200, ['text/html']], path);
      await compare(`${path}.md`);
    }
  });

  test('every documented difference names a case of the shared list', () => {
    const paths = new Set(URL_CASES.map(({ path }) => path));
    for (const path of Object.keys(DIFFERENCES)) assert.ok(paths.has(path), path);
  });

  test("/ and paths under no locale follow the browser's language; a moved page then redirects again", async () => {
    for (const language of ['ja-JP,ja;q=0.9', 'fr', 'de-CH, de;q=0.8']) {
      const headers = { 'Accept-Language': language };
      await compare('/', headers, null);
      // German and French localize the page's path; Japanese keeps it.
      await compare('/docs/guides/install?x=1', headers, language.startsWith('ja') ? null : 'two hops');
      await compare('/nope', headers);
      await compare('/nginx-server.conf', headers);
    }
  });

  test('a visitor who chose a language in the switcher gets the chooser page at /, whose script follows the cookie', async () => {
    await compare('/', { Cookie: 'locale=de', 'Accept-Language': 'ja' }, 'chooser');
  });
});
