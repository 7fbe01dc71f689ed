import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLocales, makePage } from '../../helpers/content.ts';
import { get, rawRequest } from '../../helpers/http.ts';
import { ROOT, startServer, startServerExpectingFailure, type RunningServer } from '../../helpers/server.ts';

/** The routing contract, over real HTTP against the built server (`node dist/server/main.js`). */
let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const message = (locale: string, key: string): string =>
  JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'))[key];

function payloadOf(html: string) {
  const match = /<script type="application\/json" id="polysite-data">(.*?)<\/script>/s.exec(html);
  assert.ok(match, 'the page embeds its data');
  return JSON.parse(match[1]!);
}

describe('negotiated redirects from paths without a locale', () => {
  for (const [path, headers, location] of [
    ['/', {}, '/en'],
    ['/', { 'Accept-Language': 'de-CH,de;q=0.9' }, '/de'],
    ['/', { 'Accept-Language': 'pt-BR' }, '/en'],
    ['/', { 'Accept-Language': 'fr;q=0.3, ar;q=0.9' }, '/ar'],
    ['/', { 'Accept-Language': 'de-CH,fr;q=0.9,de;q=0.8' }, '/de'],
    ['/', { 'Accept-Language': 'de', Cookie: 'locale=ja' }, '/ja'],
    ['/about?ref=news&x=1', { 'Accept-Language': 'fr' }, '/fr/a-propos?ref=news&x=1'],
    ['/xx/y', {}, '/en/xx/y'],
  ] as const) {
    test(`${path} with ${JSON.stringify(headers)} -> 302 ${location}`, async () => {
      const response = await get(server.url, path, headers);
      assert.equal(response.status, 302);
      assert.equal(response.headers.location, location);
      assert.equal(response.headers.vary, 'Accept-Language, Cookie');
      assert.match(response.headers['cache-control'] as string, /private/);
    });
  }
});

describe('canonical form: one permanent redirect, same-origin', () => {
  for (const [path, location] of [
    ['/DE/docs/', '/de/docs'],
    ['/de//docs', '/de/docs'],
    ['/de/docs/?q=1', '/de/docs?q=1'],
    ['/Ar/', '/ar'],
  ] as const) {
    test(`${path} -> 308 ${location}`, async () => {
      const response = await get(server.url, path);
      assert.equal(response.status, 308);
      assert.equal(response.headers.location, location);
    });
  }

  for (const path of [
    '//evil.example',
    '//evil.example/',
    '/%2F%2Fevil.example',
    '/\\evil.example',
    '/%5Cevil.example',
    '/EN//evil.example',
  ]) {
    test(`${path} never redirects off-site`, async () => {
      const response = await get(server.url, path);
      const location = response.headers.location as string | undefined;
      if (location !== undefined) {
        assert.match(location, /^\/[a-z]{2}(\/|$)/);
        assert.equal(new URL(location, 'https://example.test').origin, 'https://example.test');
      } else {
        assert.equal(response.status, 400);
      }
    });
  }
});

describe('pages', () => {
  test('/ar renders right to left in Arabic', async () => {
    const response = await get(server.url, '/ar');
    assert.equal(response.status, 200);
    assert.match(response.body, /^<!DOCTYPE html><html lang="ar" dir="rtl">/);
  });

  test('/de/docs/anleitungen/installation is a German docs page with canonical and hreflang from PUBLIC_URL', async () => {
    const response = await get(server.url, '/de/docs/anleitungen/installation', {
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
    });
    assert.equal(response.status, 200);
    assert.match(response.body, /<html lang="de" dir="ltr">/);
    assert.match(response.body, /<link rel="canonical" href="https:\/\/example\.test\/de\/docs\/anleitungen\/installation">/);
    for (const locale of ['en', 'de', 'fr', 'ja', 'ar', 'x-default']) {
      assert.match(response.body, new RegExp(`<link rel="alternate" hreflang="${locale}" href="https://example\\.test/`));
    }
    assert.doesNotMatch(response.body, /evil\.example/);
    assert.match(response.body, /<title>[^<]+<\/title>/);
    assert.match(response.body, /<meta name="description" content="[^"]+">/);
  });

  test('every page links to the same page in each other locale', async () => {
    const { body } = await get(server.url, '/fr/docs/routing');
    for (const locale of ['en', 'de', 'ja', 'ar']) assert.match(body, new RegExp(`href="/${locale}/docs/routing" hrefLang="${locale}"`));
  });

  test('/fr/nope is a French 404 in the same shell, with links home and to the docs', async () => {
    const response = await get(server.url, '/fr/nope');
    assert.equal(response.status, 404);
    assert.match(response.body, /<html lang="fr" dir="ltr">/);
    assert.ok(
      response.body.includes(message('fr', 'notFound.title').replace(/'/g, '&#x27;')) ||
        response.body.includes(message('fr', 'notFound.title')),
    );
    assert.match(response.body, /href="\/fr"/);
    assert.match(response.body, /href="\/fr\/docs"/);
    assert.match(response.body, /<meta name="robots" content="noindex">/);
  });

  test('a page missing in a locale shows the default locale content, a notice, the real lang, and no false hreflang', async () => {
    const response = await get(server.url, '/ja/docs/deploy/docker');
    assert.equal(response.status, 200);
    assert.match(response.body, /<html lang="ja"/);
    assert.match(response.body, /class="notice"/);
    assert.match(response.body, /<article class="docs-article[^"]*" lang="en">/);
    // "On this page" is in Japanese, the headings it lists in English.
    assert.match(response.body, /<details class="toc" lang="ja"><summary>このページの内容<\/summary><nav [^>]*><ol lang="en"[^>]*>/);
    assert.doesNotMatch(response.body, /hreflang="ja" href="https:\/\/example\.test\/ja\/docs\/deploy\/docker"/);
    assert.match(response.body, /hreflang="en" href="https:\/\/example\.test\/en\/docs\/deploy\/docker"/);
  });

  test('a translation whose English source changed since it was recorded says so and links to the original, in its own lang', async () => {
    // The default site's de docs/routing is deliberately behind en (see locales/de/translations.json).
    const response = await get(server.url, '/de/docs/routing');
    assert.equal(response.status, 200);
    assert.match(response.body, /<html lang="de"/);
    assert.match(response.body, /<article class="docs-article[^"]*">/);
    assert.doesNotMatch(response.body, /<article class="docs-article[^"]*" lang=/, 'the text is German: no other lang');
    const notice = /<p class="notice" role="note" data-notice="outdated">(.*?)<\/p>/s.exec(response.body);
    assert.ok(notice, 'the outdated notice is there');
    assert.ok(notice[1]!.includes(message('de', 'page.outdated')));
    assert.match(notice[1]!, /<a href="\/en\/docs\/routing" hrefLang="en">Das Original auf Englisch lesen<\/a>/i);
    assert.equal(payloadOf(response.body).page.outdated.path, '/en/docs/routing');

    for (const path of ['/fr/docs/routing', '/de/docs/configuration', '/en/docs/routing', '/ja/docs/deploy/docker']) {
      assert.doesNotMatch((await get(server.url, path)).body, /data-notice="outdated"/, `${path} is up to date`);
    }
  });

  test('the dev translation status page is absent in production: /_translations is an ordinary unknown path', async () => {
    const response = await get(server.url, '/_translations');
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/en/_translations');
    const target = await get(server.url, '/en/_translations');
    assert.equal(target.status, 404);
    assert.doesNotMatch(target.body, /docs\/routing/);
  });

  test('the page data is embedded once, parses, and does not repeat the content HTML', async () => {
    const { body } = await get(server.url, '/en/docs/routing');
    assert.equal(body.split('id="polysite-data"').length, 2);
    const payload = payloadOf(body);
    assert.equal(payload.page.path, '/en/docs/routing');
    assert.equal(payload.page.screen.kind, 'docs');
    assert.equal(payload.page.screen.html, '');
    assert.match(payload.messages.en, /^\/assets\/messages-en-[0-9A-F]{8}\.json$/, 'the messages are named, not carried');
    assert.equal(payload.messages['nav.home'], undefined);
  });

  test('blog dates are formatted per locale', async () => {
    const de = payloadOf((await get(server.url, '/de/blog')).body);
    const en = payloadOf((await get(server.url, '/en/blog')).body);
    assert.match(de.page.screen.posts.at(-1).date, /14\. September 2026/);
    assert.match(en.page.screen.posts.at(-1).date, /September 14, 2026/);
  });

  test('crawlers get the complete document', async () => {
    const response = await get(server.url, '/en/docs', { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    assert.equal(response.status, 200);
    assert.match(response.body, /<\/html>$/);
  });

  test('HEAD answers the status and type without a body', async () => {
    const response = await get(server.url, '/en/nope', {}, 'HEAD');
    assert.equal(response.status, 404);
    assert.match(response.headers['content-type'] as string, /text\/html/);
    assert.equal(response.body, '');
  });
});

describe('fixed routes', () => {
  test('/sitemap.xml lists every translated page of every locale, at its localized path, and no fallback', async () => {
    const response = await get(server.url, '/sitemap.xml');
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] as string, /application\/xml/);
    const locs = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
      for (const slug of ['', '/docs/deploy/heroku', '/blog']) {
        assert.ok(locs.includes(`https://example.test/${locale}${slug}`), `${locale}${slug} is listed`);
      }
    }
    assert.ok(locs.includes('https://example.test/de/docs/anleitungen/installation'));
    assert.ok(!locs.includes('https://example.test/de/about'), 'a path that redirects is not listed');
    assert.ok(!locs.includes('https://example.test/ja/docs/deploy/docker'), 'the untranslated fallback is not listed');
    const docker = /<url><loc>https:\/\/example\.test\/en\/docs\/deploy\/docker<\/loc>(.*?)<\/url>/.exec(response.body);
    assert.ok(docker, 'the original is listed');
    assert.doesNotMatch(docker[1]!, /hreflang="ja"/);
    assert.match(docker[1]!, /hreflang="en"/);
  });

  test('/robots.txt points at the sitemap on PUBLIC_URL', async () => {
    const response = await get(server.url, '/robots.txt');
    assert.equal(response.status, 200);
    assert.match(response.body, /^Sitemap: https:\/\/example\.test\/sitemap\.xml$/m);
  });

  test('/healthz answers with the build id', async () => {
    const response = await get(server.url, '/healthz');
    assert.equal(response.status, 200);
    assert.equal(JSON.parse(response.body).status, 'ok');
  });

  test('the client bundle named in the document is served with immutable caching', async () => {
    const { body } = await get(server.url, '/en');
    const src = /<script type="module" src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(body)?.[1];
    assert.ok(src, 'the document references the hashed bundle');
    const asset = await get(server.url, src);
    assert.equal(asset.status, 200);
    assert.match(asset.headers['cache-control'] as string, /max-age=31536000.*immutable/);
  });

  test('an unknown asset is a 404, not a page and not a redirect', async () => {
    assert.equal((await get(server.url, '/assets/nope.js')).status, 404);
    assert.equal((await get(server.url, '/assets/../package.json')).status === 200, false);
  });
});

describe('bad input gets a clear 4xx and the server keeps serving', () => {
  for (const [path, status] of [
    ['/en/%E0%A4%A', 400],
    ['/%', 400],
    ['/en/%2e%2e/%2e%2e/etc/passwd', 400],
    ['/en/a%00b', 400],
    ['/en/%0d%0aSet-Cookie:%20x=1', 400],
    [`/en/${'x'.repeat(3000)}`, 414],
  ] as const) {
    test(`${path.slice(0, 40)} -> ${status}`, async () => {
      const response = await get(server.url, path);
      assert.equal(response.status, status);
      assert.doesNotMatch(response.body, /at \w+ \(|node:internal|\.ts:\d+/);
      assert.equal(response.headers['set-cookie'], undefined);
    });
  }

  test('a raw ../ path is refused, never a file from outside the content', async () => {
    const text = await rawRequest(server.url, 'GET /en/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 400/);
    assert.doesNotMatch(text, /root:/);
  });

  test('a method other than GET or HEAD on a page is 405 with Allow', async () => {
    const response = await get(server.url, '/en', {}, 'DELETE');
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET, HEAD');
  });

  test('the requested path is reflected only escaped, in the HTML and in the embedded JSON', async () => {
    const response = await get(server.url, '/en/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    // `%2F` inside a segment is refused; use a path that decodes to markup without a slash.
    assert.equal(response.status, 400);
    const page = await get(server.url, '/en/%3Cimg%20src=x%20onerror=alert(1)%3E');
    assert.equal(page.status, 404);
    assert.doesNotMatch(page.body, /<img src=x/);
    assert.match(page.body, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(page.body, /\\u003cimg src=x onerror=alert\(1\)\\u003e/);
  });

  test('raw markup sent in a path or query leaves only percent-encoded, in Location and in page data', async () => {
    const negotiated = await rawRequest(server.url, 'GET /xx/<b>?q="<i>" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(negotiated, /\r\nlocation: \/en\/xx\/%3Cb%3E\?q=%22%3Ci%3E%22\r\n/i);
    const canonical = await rawRequest(server.url, 'GET /EN/<b>/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(canonical, /\r\nlocation: \/en\/%3Cb%3E\r\n/i);
    const build = JSON.parse((await get(server.url, '/healthz')).body).build;
    const data = await get(server.url, `/_data/${build}/en/%3Cscript%3Ex.json`);
    assert.equal(data.status, 404);
    assert.doesNotMatch(data.body, /</);
    assert.equal(JSON.parse(data.body).page.screen.path, '/en/<script>x', 'the escaped JSON still parses to the path');
  });

  test('a repeated 404 is the same page, and each missing path is named on its own', async () => {
    const first = await get(server.url, '/de/fehlt-hier');
    const again = await get(server.url, '/de/fehlt-hier');
    const other = await get(server.url, '/de/fehlt-dort');
    assert.deepEqual([first.status, again.status, other.status], [404, 404, 404]);
    assert.equal(again.body, first.body);
    assert.match(first.body, /fehlt-hier/);
    assert.match(other.body, /fehlt-dort/);
    assert.doesNotMatch(other.body, /fehlt-hier/);
  });

  test('after all that, pages are still served', async () => {
    assert.equal((await get(server.url, '/en')).status, 200);
  });
});

describe('start-up configuration', () => {
  test('a bad DEFAULT_LOCALE stops start-up with one line naming it', async () => {
    const { code, stderr } = await startServerExpectingFailure({ DEFAULT_LOCALE: 'xx' });
    assert.equal(code, 1);
    assert.equal(stderr.trim().split('\n').length, 1);
    assert.match(stderr, /DEFAULT_LOCALE/);
  });

  test('DEFAULT_LOCALE=de makes German the negotiation fallback', async () => {
    // A site written in German first (the default site's images are the English pages').
    const messages = JSON.parse(readFileSync(join(ROOT, 'locales', 'en', 'messages.json'), 'utf8'));
    const home = { 'messages.json': messages, 'pages/index.md': makePage({ title: 'Start' }) };
    const german = await startServer({ DEFAULT_LOCALE: 'de', LOCALES_DIR: makeLocales({ de: home, en: home }) });
    try {
      assert.equal((await get(german.url, '/', { 'Accept-Language': 'pt-BR' })).headers.location, '/de');
    } finally {
      await german.stop();
    }
  });
});
