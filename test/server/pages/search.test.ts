import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { get } from '../../helpers/http.ts';
import { ROOT, startServer, type RunningServer } from '../../helpers/server.ts';

/** The search page and its JSON, over real HTTP against the built server. */
let server: RunningServer;
let build: string;
before(async () => {
  server = await startServer();
  build = JSON.parse((await get(server.url, '/healthz')).body).build;
});
after(async () => {
  await server.stop();
});

const message = (locale: string, key: string): string =>
  JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'))[key];
const format = (locale: string, key: string, values: Record<string, string | number>) =>
  String(new IntlMessageFormat(message(locale, key), locale).format(values));
/** Text as React escapes it in HTML. */
const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

function payloadOf(body: string) {
  const match = /<script type="application\/json" id="polysite-data">(.*?)<\/script>/s.exec(body);
  assert.ok(match, 'the page embeds its data');
  return JSON.parse(match[1]!);
}

describe('the results page', () => {
  test('lists the matching pages of the locale with title, section heading and a marked snippet, in the page shell', async () => {
    const response = await get(server.url, '/en/search?q=canonical+redirect');
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] as string, /text\/html/);
    assert.match(response.body, /<html lang="en" dir="ltr">/);
    assert.match(response.body, /class="site-header"/);
    assert.match(response.body, /<ol class="search-results">/);
    assert.match(response.body, /<span class="search-hit-heading">[^<]*<mark>/);
    assert.match(response.body, /<mark>(canonical|redirect)<\/mark>/i);
    const { page } = payloadOf(response.body);
    assert.equal(page.screen.kind, 'search');
    assert.equal(page.screen.query, 'canonical redirect');
    assert.ok(page.screen.total > 0, 'something is found');
    assert.ok(
      page.screen.hits.every((hit: { path: string }) => hit.path.startsWith('/en')),
      'every result is a page of the locale',
    );
    assert.ok(
      page.screen.hits.some((hit: { path: string }) => hit.path.includes('#')),
      'results link to the matched heading',
    );
    assert.match(response.body, new RegExp(html(format('en', 'search.count', { count: page.screen.total }))));
    // The box in the header holds the query.
    assert.match(response.body, /<input[^>]*name="q" value="canonical redirect"/);
  });

  test('carries noindex and no canonical, and is not in the sitemap', async () => {
    const { body } = await get(server.url, '/de/search?q=docker');
    assert.match(body, /<meta name="robots" content="noindex">/);
    assert.doesNotMatch(body, /rel="canonical"/);
    assert.doesNotMatch(body, /hrefLang="\w+" href="https:/, 'no hreflang alternates');
    const sitemap = await get(server.url, '/sitemap.xml');
    assert.doesNotMatch(sitemap.body, /\/search/);
  });

  test('the language switcher keeps the query', async () => {
    const { body } = await get(server.url, '/fr/search?q=docker');
    assert.match(body, /href="\/ja\/search\?q=docker" hrefLang="ja"/);
  });

  test('an empty query shows the empty state', async () => {
    for (const path of ['/en/search', '/en/search?q=', '/en/search?q=+++']) {
      const response = await get(server.url, path);
      assert.equal(response.status, 200, path);
      assert.match(response.body, new RegExp(html(message('en', 'search.empty'))), path);
      assert.doesNotMatch(response.body, /class="search-results"/);
    }
  });

  test('a query with no match says so and offers the docs index', async () => {
    const { status, body } = await get(server.url, '/de/search?q=zzqxv');
    assert.equal(status, 200);
    assert.match(body, new RegExp(html(format('de', 'search.noMatch', { query: 'zzqxv' }))));
    assert.match(body, /<a href="\/de\/docs">/);
  });

  test('the count is an ICU plural in the page language (Arabic has six forms)', async () => {
    const count = message('ar', 'search.count');
    for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) assert.match(count, new RegExp(`\\b${form} \\{`), form);
    for (const query of ['الخادم', 'Docker', 'Sentry']) {
      const { body } = await get(server.url, `/ar/search?q=${encodeURIComponent(query)}`);
      const { page } = payloadOf(body);
      assert.ok(page.screen.total > 0, query);
      assert.match(body, new RegExp(html(format('ar', 'search.count', { count: page.screen.total }))), query);
    }
  });

  test('an untranslated page is found in its locale and marked with its language', async () => {
    const { body } = await get(server.url, '/ja/search?q=Dockerfile');
    const { page } = payloadOf(body);
    const docker = page.screen.hits.find((hit: { path: string }) => hit.path.startsWith('/ja/docs/deploy/docker'));
    assert.ok(docker, 'the English page is listed under /ja');
    assert.deepEqual(docker.fallback, { lang: 'en', language: '英語' });
    assert.match(body, /class="search-hit-language">英語のページ</);
    assert.match(body, /<span class="search-hit-title" lang="en">/);
  });

  test('accent- and case-insensitive, in every language', async () => {
    for (const [locale, query, found] of [
      ['de', 'Uberblick', 'Überblick'],
      ['fr', 'negociation', 'négociation'],
      ['ja', '設定', '設定'],
    ] as const) {
      const { body } = await get(server.url, `/${locale}/search?q=${encodeURIComponent(query)}`);
      assert.match(body, new RegExp(`<mark>${found}</mark>`), `${locale}: ${query}`);
    }
  });

  test('HEAD answers the status and type without a body', async () => {
    const response = await get(server.url, '/en/search?q=docker', {}, 'HEAD');
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] as string, /text\/html/);
    assert.equal(response.body, '');
  });
});

describe('never one query for another', () => {
  test('pages for different queries, one after the other, each show their own query and results', async () => {
    const paths = ['/en/search?q=docker', '/en/search?q=heroku', '/en/search?q=docker', '/en/search'];
    const bodies = [];
    for (const path of paths) bodies.push((await get(server.url, path)).body);
    const screens = bodies.map((body) => payloadOf(body).page.screen);
    assert.deepEqual(
      screens.map((screen) => screen.query),
      ['docker', 'heroku', 'docker', ''],
    );
    assert.notDeepEqual(screens[0].hits, screens[1].hits);
    assert.deepEqual(screens[0].hits, screens[2].hits);
    assert.match(bodies[1]!, /<mark>Heroku<\/mark>/);
    assert.doesNotMatch(bodies[1]!, /<mark>Docker<\/mark>/);
  });

  test('the JSON of different queries, one after the other, is each its own', async () => {
    const first = JSON.parse((await get(server.url, `/_data/${build}/en/search.json?q=docker`)).body);
    const second = JSON.parse((await get(server.url, `/_data/${build}/en/search.json?q=heroku`)).body);
    const withOther = JSON.parse((await get(server.url, `/_data/${build}/en/search.json?messages=1&q=routing`)).body);
    assert.equal(first.page.screen.query, 'docker');
    assert.equal(second.page.screen.query, 'heroku');
    // Parameters other than q are not the page's: the same page data, nothing added (beside
    // the page, the search indexes it can use, which a site with docs versions names).
    assert.equal(withOther.page.screen.query, 'routing');
    assert.deepEqual(Object.keys(withOther), ['page', 'search']);
    assert.deepEqual(withOther.search, first.search);
  });
});

describe('the JSON form', () => {
  test('is the search page data: the same results as the page', async () => {
    const response = await get(server.url, `/_data/${build}/fr/search.json?q=${encodeURIComponent('négociation langue')}`);
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type'] as string, /application\/json/);
    const { page } = JSON.parse(response.body);
    const document = payloadOf((await get(server.url, `/fr/search?q=${encodeURIComponent('négociation langue')}`)).body).page;
    assert.deepEqual(page.screen, document.screen);
  });

  test('a redirect it answers keeps the query as a query', async () => {
    const canonical = JSON.parse((await get(server.url, `/_data/${build}/EN/search.json?q=cache&messages=1`)).body);
    assert.deepEqual(canonical, { redirect: '/en/search?q=cache' });
    const negotiated = JSON.parse((await get(server.url, `/_data/${build}/xx/search.json?q=cache`)).body);
    assert.deepEqual(negotiated, { redirect: '/en/xx/search?q=cache' });
  });

  test('a query that decomposes into hundreds of words is cut to what the engine walks, not refused, alike in the page and the JSON', async () => {
    for (const query of [`a${'\u{FE70}a'.repeat(127)}`, '\u{FDFA}'.repeat(256), `${'\u{FC5E}x '.repeat(60)}cache`]) {
      const q = encodeURIComponent(query);
      const page = await get(server.url, `/en/search?q=${q}`);
      const json = await get(server.url, `/_data/${build}/en/search.json?q=${q}`);
      assert.equal(page.status, 200);
      assert.equal(json.status, 200);
      assert.deepEqual(JSON.parse(json.body).page.screen, payloadOf(page.body).page.screen);
    }
  });

  test('bad queries get the same 400 as the page', async () => {
    for (const query of ['q=%E0%A4%A', 'q=a&q=b', `q=${'x'.repeat(257)}`]) {
      assert.equal((await get(server.url, `/_data/${build}/en/search.json?${query}`)).status, 400, query);
    }
  });
});

describe('the query is never reflected unescaped', () => {
  const attack = '"><img src=x onerror=alert(1)></script><!--';
  test('in the HTML, the title, the box and the embedded JSON', async () => {
    const { status, body } = await get(server.url, `/en/search?q=${encodeURIComponent(attack)}`);
    assert.equal(status, 200);
    assert.doesNotMatch(body, /<img src=x/);
    assert.doesNotMatch(body, /"><img/);
    assert.match(body, /&lt;img src=x onerror=alert\(1\)&gt;/);
    // Ours: the theme script in the head, the page data and the entry module.
    assert.equal(body.split('</script>').length, 4, 'only our three script elements end');
    assert.equal(payloadOf(body).page.screen.query, attack);
  });

  test('in the JSON form', async () => {
    const { body } = await get(server.url, `/_data/${build}/en/search.json?q=${encodeURIComponent(attack)}`);
    assert.doesNotMatch(body, /</);
    assert.equal(JSON.parse(body).page.screen.query, attack);
  });
});

describe('bad input gets a clear 400, never a 500', () => {
  for (const [name, path] of [
    ['malformed percent-encoding', '/en/search?q=%E0%A4%A'],
    ['a lone %', '/en/search?q=100%'],
    ['an encoded lone surrogate', '/en/search?q=%ED%A0%80'],
    ['a repeated q', '/en/search?q=a&q=b'],
    ['257 characters', `/en/search?q=${'x'.repeat(257)}`],
    ['257 characters, encoded', `/en/search?q=${encodeURIComponent('日'.repeat(257))}`],
    ['10,000 characters', `/en/search?q=${'x'.repeat(10_000)}`],
  ] as const) {
    test(`${name} -> 400`, async () => {
      const response = await get(server.url, path);
      assert.equal(response.status, 400);
      assert.doesNotMatch(response.body, /at \w+ \(|node:internal|\.ts:\d+/);
      assert.match(response.body, /400 /);
    });
  }

  test('256 characters are fine', async () => {
    assert.equal((await get(server.url, `/en/search?q=${encodeURIComponent('日'.repeat(256))}`)).status, 200);
  });

  test('a canonical redirect keeps the query, percent-encoded', async () => {
    const response = await get(server.url, '/EN/search/?q=%3Cb%3E');
    assert.equal(response.status, 308);
    assert.equal(response.headers.location, '/en/search?q=%3Cb%3E');
  });

  test('after all that, search still answers', async () => {
    assert.equal((await get(server.url, '/en/search?q=docker')).status, 200);
  });
});

describe('the index the browser downloads', () => {
  test('each locale has a content-hashed, immutable index asset named in the page, parsing as the server loaded it', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'manifest.json'), 'utf8'));
    const { search } = payloadOf((await get(server.url, '/ja/docs')).body);
    for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
      assert.match(search[locale], new RegExp(`^/assets/search-${locale}-[0-9A-F]{8}\\.json$`));
      assert.equal(search[locale], manifest.search[locale], 'the file the build wrote');
      const asset = await get(server.url, search[locale], { 'Accept-Encoding': 'identity' });
      assert.equal(asset.status, 200);
      assert.match(asset.headers['cache-control'] as string, /max-age=31536000.*immutable/);
      assert.match(asset.headers['content-type'] as string, /application\/json/);
      assert.equal(asset.body, readFileSync(join(ROOT, 'dist', 'client', search[locale]), 'utf8'));
      assert.equal(JSON.parse(asset.body).locale, locale);
    }
  });

  test('above SEARCH_INDEX_MAX_KB the page names no index: the box asks the server', async () => {
    const small = await startServer({ SEARCH_INDEX_MAX_KB: '1' });
    try {
      const { search } = payloadOf((await get(small.url, '/en')).body);
      // Each locale's latest: a page names no older docs version's (the default site ships 0.1).
      assert.deepEqual(search, Object.fromEntries(['en', 'ar', 'de', 'fr', 'ja'].map((locale) => [locale, null])));
      const old = payloadOf((await get(small.url, '/en/docs/0.1')).body).search;
      assert.deepEqual(old, Object.fromEntries(['en', 'en@0.1', 'ar@0.1', 'de@0.1', 'fr@0.1', 'ja@0.1'].map((scope) => [scope, null])));
    } finally {
      await small.stop();
    }
  });
});
