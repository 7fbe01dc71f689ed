import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { get } from '../../helpers/http.ts';
import { makeAccentedSite, wire } from '../../helpers/unicode-site.ts';

// Localized slugs with letters that Unicode spells two ways: precomposed (NFC, `ü` as
// U+00FC, what keyboards and our paths use) and decomposed (NFD, `u` + U+0308, what
// macOS file names and some input methods give). Over real HTTP against the app.

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: makeAccentedSite(), DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

const PAGES = [
  '/de/über-uns',
  '/de/dokumentation-für-alle',
  '/de/dokumentation-für-alle/einführung',
  '/fr/à-propos',
  '/en/docs/café',
  '/en/docs/größe',
  '/en/docs/übersicht',
  '/en/docs/übersicht/start',
  '/de/dokumentation-für-alle/größe',
];

describe('an accented localized slug', () => {
  for (const path of PAGES) {
    test(`${path} answers 200 in NFC, and its NFD spelling gets one 308 to the NFC path`, async () => {
      const nfc = wire(path, 'NFC');
      const nfd = wire(path, 'NFD');
      assert.notEqual(nfd, nfc);
      assert.equal((await get(app.url, nfc)).status, 200);
      const redirect = await get(app.url, `${nfd}?ref=x`);
      assert.equal(redirect.status, 308);
      assert.equal(redirect.headers.location, `${nfc}?ref=x`);
      assert.match(redirect.headers['cache-control'] as string, /max-age/);
    });
  }

  test('a file name saved in NFD is the page of its NFC name: served at the NFC path, translated by the NFC file', async () => {
    const page = await get(app.url, wire('/de/dokumentation-für-alle/café', 'NFC'));
    assert.equal(page.status, 200);
    assert.match(page.body, /Auf Deutsch/);
    assert.equal((await get(app.url, wire('/fr/docs/café', 'NFC'))).status, 200, 'the English page, served in French');
  });

  test('with other faults too (locale case, trailing slash), the NFD spelling is still one hop to the page', async () => {
    const response = await get(app.url, `/DE/${wire('über-uns', 'NFD')}/`);
    assert.equal(response.status, 308);
    assert.equal(response.headers.location, wire('/de/über-uns', 'NFC'));
    assert.equal((await get(app.url, response.headers.location as string)).status, 200);
  });

  test('without a locale, the NFD spelling is negotiated straight to the NFC page', async () => {
    const response = await get(app.url, wire('/dokumentation-für-alle/einführung', 'NFD'), { 'Accept-Language': 'de' });
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, wire('/de/dokumentation-für-alle/einführung', 'NFC'));
  });

  test('page data for the NFD spelling redirects to the NFC page', async () => {
    const build = app.site.manifest.build;
    const response = await get(app.url, `/_data/${build}${wire('/de/über-uns', 'NFD')}.json`);
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body), { redirect: wire('/de/über-uns', 'NFC') });
  });

  test('an NFD path that names no page in any spelling is still a 404', async () => {
    assert.equal((await get(app.url, wire('/de/nirgendwo-für', 'NFD'))).status, 404);
  });

  test("a file or folder saved in NFD: the links to it, the sitemap and the section's label all name the NFC path", async () => {
    const size = wire('/en/docs/größe', 'NFC');
    const install = (await get(app.url, '/en/docs/install')).body;
    assert.ok(install.includes(`href="${size}"`), 'a relative link typed NFC');
    assert.ok(install.includes(`href="${wire('/en/docs/übersicht/start', 'NFC')}"`), 'a link by path');
    const start = await get(app.url, wire('/en/docs/übersicht/start', 'NFC'));
    assert.ok(start.body.includes(`href="${size}"`), 'a link typed NFD from a folder saved NFD');
    assert.ok(start.body.includes('The overview'), "the folder's _section.yml label");
    const sitemap = (await get(app.url, '/sitemap.xml')).body;
    for (const path of ['/en/docs/größe', '/en/docs/übersicht/start']) assert.ok(sitemap.includes(wire(path, 'NFC')), path);
    assert.doesNotMatch(sitemap, /%CC%88/, 'no decomposed letter in the sitemap');
  });
});
