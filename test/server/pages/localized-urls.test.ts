import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, rawRequest } from '../../helpers/http.ts';
import { startServer, type RunningServer } from '../../helpers/server.ts';

// Localized URLs of the default site, over real HTTP against the built server.

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const ORIGIN = 'https://example.test';

/** The default site's localized pages: page key -> its path (decoded) per locale. */
const TABLE: Record<string, Record<string, string>> = {
  about: { en: '/en/about', de: '/de/ueber-uns', fr: '/fr/a-propos', ja: '/ja/概要', ar: '/ar/حول' },
  'docs/guides': { en: '/en/docs/guides', de: '/de/docs/anleitungen', fr: '/fr/docs/guides', ja: '/ja/docs/guides', ar: '/ar/docs/guides' },
  'docs/guides/install': {
    en: '/en/docs/guides/install',
    de: '/de/docs/anleitungen/installation',
    fr: '/fr/docs/guides/installation',
    ja: '/ja/docs/guides/install',
    ar: '/ar/docs/guides/install',
  },
};

/** How a path goes on the wire: each segment percent-encoded as a browser does. */
const encoded = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function headOf(html: string) {
  const canonical = /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];
  const alternates = Object.fromEntries(
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]),
  );
  const payload = JSON.parse(/<script type="application\/json" id="polysite-data">(.*?)<\/script>/s.exec(html)![1]!);
  return { canonical, alternates, payload };
}

describe('each localized page answers at its path, in encoded and unencoded form', () => {
  for (const [key, row] of Object.entries(TABLE)) {
    for (const [locale, path] of Object.entries(row)) {
      test(`${key} in ${locale}: ${path}`, async () => {
        // The encoded form, as it goes on the wire.
        const response = await get(server.url, encoded(path));
        assert.equal(response.status, 200);
        const { canonical, alternates, payload } = headOf(response.body);
        assert.equal(canonical, ORIGIN + encoded(path));
        assert.equal(payload.page.path, encoded(path));
        // hreflang names every locale's own path, and x-default the default locale's.
        for (const [other, otherPath] of Object.entries(row)) assert.equal(alternates[other], ORIGIN + encoded(otherPath));
        assert.equal(alternates['x-default'], ORIGIN + encoded(row.en!));
        // The switcher goes to the same page in each locale.
        assert.deepEqual(
          Object.fromEntries([...response.body.matchAll(/<a href="([^"]+)"[^>]* data-locale-switch="([^"]+)"/g)].map((m) => [m[2], m[1]])),
          Object.fromEntries(Object.entries(row).map(([other, otherPath]) => [other, encoded(otherPath)])),
        );
        // The unencoded form a user types: fetch encodes it the way a browser does, and it is the same page.
        const typed = await fetch(server.url + path, { redirect: 'manual' });
        assert.equal(typed.status, 200);
        assert.equal(await typed.text(), response.body);
      });
    }
  }

  test('lower-case escapes of the same path get one 308 to the canonical form', async () => {
    const response = await get(server.url, '/ja/%e6%a6%82%e8%a6%81?x=1');
    assert.equal(response.status, 308);
    assert.equal(response.headers.location, '/ja/%E6%A6%82%E8%A6%81?x=1');
  });

  test('raw UTF-8 bytes in a request line get a 400 from the HTTP parser, and the server keeps serving', async () => {
    const answer = await rawRequest(server.url, `GET /ja/概要 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal((await get(server.url, encoded('/ja/概要'))).status, 200);
  });
});

describe('the default locale path in a locale that localized it', () => {
  for (const [from, to] of [
    ['/de/about', '/de/ueber-uns'],
    ['/fr/about?ref=news&x=1', '/fr/a-propos?ref=news&x=1'],
    ['/ja/about', encoded('/ja/概要')],
    ['/ar/about', encoded('/ar/حول')],
    ['/de/docs/guides', '/de/docs/anleitungen'],
    ['/DE/about/?x=1', '/de/ueber-uns?x=1'],
    ['/JA/%E6%A6%82%E8%A6%81/', encoded('/ja/概要')],
    ['/de/docs/guides/install#x', '/de/docs/anleitungen/installation'],
    ['/fr/docs/guides/install?a=<b>', '/fr/docs/guides/installation?a=%3Cb%3E'],
  ] as const) {
    test(`${from} -> 308 ${to}`, async () => {
      const response = await get(server.url, from.replace(/#.*/, ''));
      assert.equal(response.status, 308);
      assert.equal(response.headers.location, to);
      // One hop, whatever was wrong with the path (case, slash, default form): the target is the page.
      assert.equal((await get(server.url, to)).status, 200);
    });
  }

  test('its page data answers a redirect to the localized page data path', async () => {
    const html = (await get(server.url, '/de/ueber-uns')).body;
    const build = headOf(html).payload.page.build;
    const response = await get(server.url, `/_data/${build}/de/about.json`);
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body), { redirect: '/de/ueber-uns' });
    const data = await get(server.url, `/_data/${build}${encoded('/ja/概要')}.json`);
    assert.equal(data.status, 200);
    assert.equal(JSON.parse(data.body).page.path, encoded('/ja/概要'));
  });
});

describe('negotiated redirects carry the page into the chosen locale', () => {
  for (const [path, language, location] of [
    ['/about', 'de', '/de/ueber-uns'],
    ['/about?ref=x', 'ja', `${encoded('/ja/概要')}?ref=x`],
    ['/docs/guides/install', 'de-CH', '/de/docs/anleitungen/installation'],
    ['/docs/guides/install', 'fr', '/fr/docs/guides/installation'],
    ['/no/such/page', 'de', '/de/no/such/page'],
  ] as const) {
    test(`${path} with Accept-Language ${language} -> ${location}`, async () => {
      const response = await get(server.url, path, { 'Accept-Language': language });
      assert.equal(response.status, 302);
      assert.equal(response.headers.location, location);
    });
  }
});

describe('untranslated pages are copies of the original', () => {
  test('their canonical is the default locale page, they answer 200 with the notice, and no alternate names them', async () => {
    const response = await get(server.url, '/ja/docs/deploy/docker');
    assert.equal(response.status, 200);
    const { canonical, alternates, payload } = headOf(response.body);
    assert.equal(canonical, `${ORIGIN}/en/docs/deploy/docker`);
    assert.equal(alternates.ja, undefined);
    assert.equal(payload.page.locale, 'ja');
    assert.equal(payload.page.fallback.contentLocale, 'en');
    const original = headOf((await get(server.url, '/en/docs/deploy/docker')).body);
    assert.equal(original.alternates.ja, undefined);
    // Its structured data names the original, with no trail through the Japanese copies.
    const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!);
    const types = (data: unknown) => JSON.stringify(data).match(/"@type":"\w+"/g);
    assert.ok(!types(jsonLd(response.body))!.includes('"@type":"BreadcrumbList"'), JSON.stringify(jsonLd(response.body)));
    assert.ok(types(jsonLd((await get(server.url, '/en/docs/deploy/docker')).body))!.includes('"@type":"BreadcrumbList"'));
  });
});

describe('the sitemap', () => {
  test('lists localized paths with alternates that pair up both ways, and no fallback', async () => {
    const body = (await get(server.url, '/sitemap.xml')).body;
    const entries = new Map<string, Map<string, string>>();
    for (const [, loc, links] of body.matchAll(/<url><loc>([^<]+)<\/loc>(.*?)<\/url>/g)) {
      entries.set(loc!, new Map([...links!.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1]!, m[2]!])));
    }
    for (const row of Object.values(TABLE)) {
      for (const [locale, path] of Object.entries(row)) {
        const alternates = entries.get(ORIGIN + encoded(path));
        assert.ok(alternates, `${path} is listed`);
        assert.equal(alternates.get(locale), ORIGIN + encoded(path));
        for (const [other, otherPath] of Object.entries(row)) assert.equal(alternates.get(other), ORIGIN + encoded(otherPath));
      }
    }
    // Both ways, for every entry: each alternate is listed and names this page back.
    for (const [loc, alternates] of entries) {
      for (const href of alternates.values()) {
        assert.ok(entries.has(href), `${href} (an alternate of ${loc}) is listed`);
        assert.ok([...entries.get(href)!.values()].includes(loc), `${href} names ${loc} back`);
      }
    }
    assert.ok(!entries.has(`${ORIGIN}/de/about`));
    assert.ok(!entries.has(`${ORIGIN}/ja/docs/deploy/docker`));
  });
});
