import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { ARABIC_HOSTILE_TITLE, HOSTILE_TITLE, IMAGES, makeBlogSite } from '../../helpers/blog-site.ts';
import { get } from '../../helpers/http.ts';
import { ATOM_NS, atomChildren, atomText, parseXml } from '../../helpers/xml.ts';

/** The feeds over real HTTP: the app on a loopback port over a small blog in English and Arabic. */
let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: makeBlogSite(), DEFAULT_LOCALE: 'en' }, IMAGES);
});
after(() => app.close());

describe('the Atom feed', () => {
  test('answers as Atom, with the page cache policy and a strong ETag', async () => {
    const response = await get(app.url, '/en/blog/feed.xml');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'public, max-age=0, s-maxage=300, stale-while-revalidate=300');
    assert.match(response.headers.etag as string, /^"[\w-]+"$/);
    assert.match(response.headers['content-security-policy'] as string, /default-src 'self'/, 'security headers as on every answer');
  });

  test('the English feed, element by element, through a conforming XML parser', async () => {
    const feed = parseXml((await get(app.url, '/en/blog/feed.xml')).body);
    assert.equal(feed.uri, ATOM_NS);
    assert.equal(feed.name, 'feed');
    assert.equal(feed.attributes['xml:lang'], 'en');
    assert.equal(atomText(feed, 'id'), 'tag:example.test,2026-01-02:en/blog');
    assert.equal(atomText(feed, 'title'), 'Blog · polysite');
    assert.equal(atomText(feed, 'subtitle'), 'News.');
    assert.equal(atomText(feed, 'updated'), '2026-03-05T00:00:00Z');
    assert.equal(atomText(atomChildren(feed, 'author')[0]!, 'name'), 'polysite');
    assert.deepEqual(
      atomChildren(feed, 'link').map((link) => link.attributes),
      [
        { rel: 'self', type: 'application/atom+xml', href: 'https://example.test/en/blog/feed.xml' },
        { rel: 'alternate', type: 'text/html', href: 'https://example.test/en/blog' },
      ],
    );
    const [hostile, first, ...rest] = atomChildren(feed, 'entry');
    assert.deepEqual(rest, []);
    assert.equal(atomText(hostile!, 'id'), 'tag:example.test,2026-03-01:en/blog/hostile');
    assert.equal(atomText(hostile!, 'title'), HOSTILE_TITLE);
    assert.deepEqual(atomChildren(hostile!, 'link')[0]!.attributes, {
      rel: 'alternate',
      type: 'text/html',
      href: 'https://example.test/en/blog/hostile',
    });
    assert.equal(atomText(hostile!, 'published'), '2026-03-01T00:00:00Z');
    assert.equal(atomText(hostile!, 'updated'), '2026-03-05T00:00:00Z', 'front matter updated:');
    assert.equal(atomText(atomChildren(hostile!, 'author')[0]!, 'name'), 'Grace & "Co"');
    assert.equal(atomText(hostile!, 'summary'), `A summary with ${HOSTILE_TITLE}`);
    assert.equal(atomText(first!, 'title'), 'First post');
    assert.equal(atomText(first!, 'updated'), '2026-01-02T00:00:00Z', 'no updated: its date');
  });

  test('the Arabic feed: its own titles, right to left, and the untranslated post marked English', async () => {
    const feed = parseXml((await get(app.url, '/ar/blog/feed.xml')).body);
    assert.equal(feed.attributes['xml:lang'], 'ar');
    assert.equal(atomText(feed, 'title'), 'المدونة · polysite');
    const entries = atomChildren(feed, 'entry');
    assert.deepEqual(
      entries.map((entry) => [atomText(entry, 'title'), entry.attributes['xml:lang'], atomChildren(entry, 'link')[0]!.attributes.href]),
      [
        [ARABIC_HOSTILE_TITLE, undefined, 'https://example.test/ar/blog/hostile'],
        ['First post', 'en', 'https://example.test/ar/blog/first'],
      ],
    );
  });

  test('If-None-Match with its ETag is a 304 without a body; each encoding has its own tag', async () => {
    const { headers } = await get(app.url, '/en/blog/feed.xml');
    const again = await get(app.url, '/en/blog/feed.xml', { 'If-None-Match': headers.etag as string });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers['cache-control'], 'public, max-age=0, s-maxage=300, stale-while-revalidate=300');
    const gzip = await get(app.url, '/en/blog/feed.xml', { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.notEqual(gzip.headers.etag, headers.etag);
    assert.equal(
      (await get(app.url, '/en/blog/feed.xml', { 'Accept-Encoding': 'gzip', 'If-None-Match': gzip.headers.etag as string })).status,
      304,
    );
    assert.equal((await get(app.url, '/en/blog/feed.xml', { 'If-None-Match': '"other"' })).status, 200);
  });

  test('HEAD has the headers without the body; other methods are not the feed’s', async () => {
    const head = await get(app.url, '/en/blog/feed.xml', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.equal(head.body, '');
    assert.equal((await get(app.url, '/en/blog/feed.xml', {}, 'POST')).status, 405);
  });

  test('only the exact path: other spellings are what they would be without a feed', async () => {
    assert.equal((await get(app.url, '/en/blog/feed.xml/')).status, 308);
    assert.equal((await get(app.url, '/EN/blog/feed.xml')).status, 308);
    assert.equal((await get(app.url, '/en/blog/feed.XML')).status, 404);
    assert.equal((await get(app.url, '/en/docs/feed.xml')).status, 404);
  });

  test('the sitemap lists no feed', async () => {
    const sitemap = await get(app.url, '/sitemap.xml');
    assert.equal(sitemap.status, 200);
    assert.match(sitemap.body, /<loc>https:\/\/example\.test\/en\/blog<\/loc>/);
    assert.doesNotMatch(sitemap.body, /feed/);
  });
});
