import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveApp } from '../../helpers/app.ts';
import { makeLocales, makePage } from '../../helpers/content.ts';
import { get } from '../../helpers/http.ts';
import { ROOT } from '../../helpers/server.ts';

// Localized slugs with letters that Unicode spells two ways: precomposed (NFC, `ü` as
// U+00FC, what keyboards and our paths use) and decomposed (NFD, `u` + U+0308, what
// macOS file names and some input methods give). Over real HTTP against the app.

const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));

/** A site whose German and French pages have accented slugs; the German docs folder too, so its children follow. */
function makeAccentedSite(): string {
  return makeLocales({
    en: {
      'messages.json': messages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/about.md': makePage({ title: 'About' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/install.md': makePage({ title: 'Install' }),
      // A file name saved decomposed (NFD), as macOS may write it.
      ['pages/docs/café.md'.normalize('NFD')]: makePage({ title: 'Café' }),
    },
    de: {
      'messages.json': messages('de'),
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/about.md': makePage({ title: 'Über uns', slug: 'über-uns' }),
      'pages/docs/index.md': makePage({ title: 'Doku', slug: 'dokumentation-für-alle' }),
      'pages/docs/install.md': makePage({ title: 'Installation', slug: 'einführung' }),
      // Its translation, saved precomposed: the same page.
      'pages/docs/café.md': makePage({ title: 'Kaffee' }, 'Auf Deutsch.\n'),
    },
    fr: {
      'messages.json': messages('fr'),
      'pages/index.md': makePage({ title: 'Accueil' }),
      // Written decomposed, as a file saved on macOS may hold it: served at the NFC path all the same.
      'pages/about.md': makePage({ title: 'À propos', slug: 'à-propos'.normalize('NFD') }),
    },
  });
}

/** A path as a browser puts it on the wire: each segment percent-encoded, in the given normalization form. */
const wire = (path: string, form: 'NFC' | 'NFD') => path.normalize(form).split('/').map(encodeURIComponent).join('/');

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: makeAccentedSite(), DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

const PAGES = ['/de/über-uns', '/de/dokumentation-für-alle', '/de/dokumentation-für-alle/einführung', '/fr/à-propos', '/en/docs/café'];

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
});
