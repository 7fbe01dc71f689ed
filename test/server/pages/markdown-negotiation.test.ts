import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';

// A page's URL answers its Markdown twin to a request that prefers text/markdown, over HTTP
// from the real app with its render cache (and so the cached lane) on.

const MARKDOWN = { Accept: 'text/markdown' };

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  const locales = makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home', description: 'The start.' }),
      'pages/docs/index.md': makePage({ title: 'Docs', description: 'All the docs.' }, 'See [about](/about).\n'),
      'pages/about.md': makePage({ title: 'About', description: 'Who we are.' }),
    },
    de: {
      'messages.json': realMessages('de'),
      'pages/about.md': makePage({ title: 'Über uns', description: 'Wer wir sind.', slug: 'über-uns' }),
    },
  });
  app = await serveApp({ LOCALES_DIR: locales, DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

describe('Accept: text/markdown on a page URL', () => {
  test('answers the twin, the same bytes as the .md URL, with Vary: Accept and where the twin lives', async () => {
    const twin = await get(app.url, '/de/docs.md');
    const answer = await get(app.url, '/de/docs', MARKDOWN);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.equal(answer.body, twin.body);
    assert.match(answer.headers.vary as string, /\bAccept\b/);
    assert.equal(answer.headers['content-location'], '/de/docs.md');
    assert.equal(answer.headers.etag, twin.headers.etag);
  });

  test('the HTML answer says Vary: Accept too, first answer and the cached lane alike', async () => {
    for (let i = 0; i < 3; i++) {
      const html = await get(app.url, '/en/about', { 'Accept-Encoding': 'gzip' });
      assert.equal(html.status, 200);
      assert.match(html.headers['content-type'] as string, /^text\/html/);
      assert.deepEqual((html.headers.vary as string).split(/,\s*/).sort(), ['Accept', 'Accept-Encoding'], `answer ${i + 1}`);
    }
    // Once the page is cached, a Markdown request still gets Markdown (not the kept HTML).
    const md = await get(app.url, '/en/about', { ...MARKDOWN, 'Accept-Encoding': 'gzip' });
    assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.match(md.body, /^---\ntitle: About\n/);
  });

  test('a home page, a fallback page and a non-ASCII localized path answer their twins', async () => {
    assert.match((await get(app.url, '/de', MARKDOWN)).body, /^---\ntitle: Home\n/);
    assert.match((await get(app.url, '/de/docs', MARKDOWN)).body, /See \[about\]\(https:\/\/example\.test\/de\/%C3%BCber-uns\)/);
    const localized = await get(app.url, `/de/${encodeURIComponent('über-uns')}`, MARKDOWN);
    assert.match(localized.body, /^---\ntitle: Über uns\n/);
  });

  test('the client decides by weight: a browser, */*, HTML first or Markdown refused get HTML', async () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      '*/*',
      'text/html, text/markdown',
      'text/markdown;q=0.5, text/html',
      'text/markdown;q=0, */*',
    ]) {
      const answer = await get(app.url, '/en/about', { Accept: accept });
      assert.match(answer.headers['content-type'] as string, /^text\/html/, accept);
    }
    for (const accept of ['text/markdown, text/html', 'text/html;q=0.5, text/markdown', 'text/markdown, */*;q=0.1', 'TEXT/MARKDOWN']) {
      const answer = await get(app.url, '/en/about', { Accept: accept });
      assert.equal(answer.headers['content-type'], 'text/markdown; charset=utf-8', accept);
    }
  });

  test('each representation has its own ETag: a 304 for its own, a 200 for the other', async () => {
    const html = await get(app.url, '/en/docs');
    const md = await get(app.url, '/en/docs', MARKDOWN);
    assert.notEqual(html.headers.etag, md.headers.etag);
    const mdAgain = await get(app.url, '/en/docs', { ...MARKDOWN, 'If-None-Match': md.headers.etag as string });
    assert.equal(mdAgain.status, 304);
    assert.match(mdAgain.headers.vary as string, /\bAccept\b/);
    const htmlAgain = await get(app.url, '/en/docs', { 'If-None-Match': html.headers.etag as string });
    assert.equal(htmlAgain.status, 304);
    // The HTML's validator does not validate the Markdown, nor the other way round.
    const crossed = await get(app.url, '/en/docs', { ...MARKDOWN, 'If-None-Match': html.headers.etag as string });
    assert.equal(crossed.status, 200);
    assert.equal(crossed.headers['content-type'], 'text/markdown; charset=utf-8');
    const crossedBack = await get(app.url, '/en/docs', { 'If-None-Match': md.headers.etag as string });
    assert.equal(crossedBack.status, 200);
    assert.match(crossedBack.headers['content-type'] as string, /^text\/html/);
  });

  test("HEAD answers GET's headers with no body, for both", async () => {
    for (const headers of [MARKDOWN, {}] as Record<string, string>[]) {
      const got = await get(app.url, '/en/docs', headers);
      const head = await get(app.url, '/en/docs', headers, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      for (const name of ['content-type', 'content-length', 'etag', 'vary', 'cache-control']) {
        assert.equal(head.headers[name], got.headers[name], `${name} ${JSON.stringify(headers)}`);
      }
    }
  });

  test('a missing page, a redirect and the search page are as without Accept', async () => {
    const missing = await get(app.url, '/en/nope', MARKDOWN);
    assert.equal(missing.status, 404);
    assert.match(missing.headers['content-type'] as string, /^text\/html/);
    const moved = await get(app.url, '/de/about', MARKDOWN);
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.location, `/de/${encodeURIComponent('über-uns')}`);
    const search = await get(app.url, '/en/search?q=about', MARKDOWN);
    assert.match(search.headers['content-type'] as string, /^text\/html/);
  });
});

describe('twin paths a visitor may mangle', () => {
  const ueber = encodeURIComponent('über-uns');
  test('another spelling of a twin gets one 308 to its own path', async () => {
    const cases: [string, string][] = [
      [`/de/${ueber.toLowerCase()}.md`, `/de/${ueber}.md`],
      [`/de/${'über-uns'.normalize('NFD').split('').map(encodeURIComponent).join('')}.md`, `/de/${ueber}.md`],
      ['/de/about.md', `/de/${ueber}.md`],
      ['/DE/docs.md', '/de/docs.md'],
      ['/en/%64ocs.md', '/en/docs.md'],
      ['/EN.md', '/en/index.md'],
      ['/en/.md/', '/en/.md'],
      ['/en//docs.md?x=1', '/en/docs.md?x=1'],
    ];
    for (const [path, location] of cases) {
      const answer = await get(app.url, path);
      assert.equal(answer.status, 308, path);
      assert.equal(answer.headers.location, location, path);
      if (location !== '/en/.md') assert.equal((await get(app.url, location)).status, 200, location);
    }
  });

  test('dot segments, encoded slashes and dots, control characters: 400; a very long path: 414; never a 500', async () => {
    const refused: [string, number][] = [
      ['/en/../about.md', 400],
      ['/en/docs/../../package.json.md', 400],
      ['/en/%2e%2e/about.md', 400],
      ['/en/%2E%2E/%2E%2E/README.md', 400],
      ['/en/docs%2F..%2F..%2Fabout.md', 400],
      ['/en/docs%2fabout.md', 400],
      ['/en/%00.md', 400],
      ['/en/%E0%A4%A.md', 400],
      ['/en/..%5c..%5cabout.md', 400],
      [`/en/${'a'.repeat(2000)}.md`, 414],
    ];
    for (const [path, status] of refused) {
      const answer = await get(app.url, path, MARKDOWN);
      assert.equal(answer.status, status, path);
      assert.doesNotMatch(answer.body, /^---\ntitle:/, path);
    }
  });

  test('a .md path that is no page is the not-found page, and no file outside the content is ever sent', async () => {
    for (const path of ['/en/nope.md', '/en/package.json.md', '/en/docs/about.md', '/en/.md', '/en/index.md.md']) {
      const answer = await get(app.url, path);
      assert.equal(answer.status, 404, path);
      assert.match(answer.headers['content-type'] as string, /^text\/html/, path);
    }
  });
});
