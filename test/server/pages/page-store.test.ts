import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPageStore } from '../../../src/server/pages/page-store.ts';
import { MESSAGES, makePage, makeSite } from '../../helpers/content.ts';

const PUBLIC_URL = 'https://example.test';

/** A store over a small site in en (default), de and ar; `de` lacks the about page. */
async function makeStore({ build = 'b1', deMessages = { ...MESSAGES, 'site.name': 'Seite' } } = {}) {
  const { site, messages } = await makeSite({
    en: { 'pages/index.md': makePage({ title: 'Welcome' }), 'pages/about.md': makePage({ title: 'About', description: 'Who we are.' }) },
    de: { 'pages/index.md': makePage({ title: 'Willkommen' }), 'messages.json': deMessages },
    ar: { 'pages/index.md': makePage({ title: 'مرحبا' }), 'pages/about.md': makePage({ title: 'من نحن' }) },
  });
  return buildPageStore({ site, messages, publicUrl: PUBLIC_URL, build });
}

test('a page is found by locale and decoded slug, with everything its screen needs', async () => {
  const store = await makeStore();
  const page = store.find('ar', 'about')!;
  assert.equal(page.status, 200);
  assert.equal(page.build, 'b1');
  assert.equal(page.path, '/ar/about');
  assert.equal(page.dir, 'rtl');
  assert.equal(page.fallback, null);
  assert.deepEqual(page.screen.kind === 'article' && page.screen.title, 'من نحن');
  assert.equal(store.find('ar', 'nope'), undefined);
  assert.equal(store.find('xx', ''), undefined);
});

test('the head: title with the site name, canonical, and alternates only for real translations', async () => {
  const store = await makeStore();
  const about = store.find('en', 'about')!;
  assert.equal(about.head.title, 'About · Site');
  assert.equal(about.head.description, 'Who we are.');
  assert.equal(about.head.canonical, `${PUBLIC_URL}/en/about`);
  assert.deepEqual(about.head.alternates, [
    { hreflang: 'en', href: `${PUBLIC_URL}/en/about` },
    { hreflang: 'ar', href: `${PUBLIC_URL}/ar/about` },
    { hreflang: 'x-default', href: `${PUBLIC_URL}/en/about` },
  ]);
  assert.equal(store.find('de', '')!.head.title, 'Seite · Willkommen', 'a home page puts the site name first');
});

test('an untranslated page is served from the default locale with a notice in the reader’s language', async () => {
  const store = await makeStore();
  const page = store.find('de', 'about')!;
  assert.equal(page.locale, 'de');
  assert.equal(page.path, '/de/about');
  assert.deepEqual(page.fallback, { contentLocale: 'en', language: 'Deutsch', original: 'Englisch' });
});

test('the language switcher names each locale in its own language and keeps the slug', async () => {
  const store = await makeStore();
  assert.deepEqual(store.find('de', 'about')!.locales, [
    { locale: 'en', name: 'English', path: '/en/about', dir: 'ltr' },
    { locale: 'de', name: 'Deutsch', path: '/de/about', dir: 'ltr' },
    { locale: 'ar', name: 'العربية', path: '/ar/about', dir: 'rtl' },
  ]);
});

test('a not-found page names the path, is not canonical, and switches to each home', async () => {
  const store = await makeStore();
  const page = store.notFound('de', '/de/<x>');
  assert.equal(page.status, 404);
  assert.deepEqual(page.screen, { kind: 'not-found', path: '/de/<x>' });
  assert.equal(page.head.canonical, null);
  assert.deepEqual(page.head.alternates, []);
  assert.deepEqual(
    page.locales.map((link) => link.path),
    ['/en', '/de', '/ar'],
  );
  assert.equal(store.etag(page), undefined, 'a not-found page has no stored validator');
});

test('ETags differ per page and change with the build and with the locale’s messages only', async () => {
  const a = await makeStore();
  const b = await makeStore({ build: 'b2' });
  const c = await makeStore({ deMessages: { ...MESSAGES, 'site.name': 'Andere' } });
  const tag = (store: typeof a, locale: string, slug: string) => store.etag(store.find(locale, slug)!);
  assert.match(tag(a, 'en', '')!, /^"[\w-]{27}"$/);
  assert.notEqual(tag(a, 'en', ''), tag(a, 'en', 'about'));
  assert.equal(tag(a, 'en', ''), tag(await makeStore(), 'en', ''), 'the same input gives the same tag');
  assert.notEqual(tag(a, 'en', ''), tag(b, 'en', ''));
  assert.notEqual(tag(a, 'de', ''), tag(c, 'de', ''));
  assert.equal(tag(a, 'en', ''), tag(c, 'en', ''), 'another locale’s messages leave English alone');
});

test('entries list every served page with the locales that really translate it', async () => {
  const store = await makeStore();
  assert.deepEqual([...store.entries()].map(({ locale, key, translated }) => `${locale}/${key}: ${translated.join(',')}`).sort(), [
    'ar/: en,de,ar',
    'ar/about: en,ar',
    'de/: en,de,ar',
    'de/about: en,ar',
    'en/: en,de,ar',
    'en/about: en,ar',
  ]);
});

test('a translation whose source changed since its record carries an outdated notice linking to the original', async () => {
  const { sourceFingerprint } = await import('../../../src/server/content/translation-record.ts');
  const before = sourceFingerprint({ title: 'About', description: 'A description.', body: 'Some text.\n' });
  const { site, messages } = await makeSite({
    en: { 'pages/about.md': makePage({ title: 'About' }, 'Some text. And a new sentence.\n'), 'pages/index.md': makePage() },
    de: { 'pages/about.md': makePage({ title: 'Über uns' }), 'translations.json': { about: before } },
    fr: { 'pages/about.md': makePage({ title: 'À propos' }) },
  });
  const store = buildPageStore({ site, messages, publicUrl: PUBLIC_URL, build: 'b1' });
  assert.deepEqual(store.find('de', 'about')!.outdated, { lang: 'en', original: 'Englisch', path: '/en/about' });
  assert.equal(store.find('fr', 'about')!.outdated, null, 'no record is unknown, not outdated');
  assert.equal(store.find('de', '')!.outdated, null, 'an untranslated page has the fallback notice only');
  assert.equal(store.find('en', 'about')!.outdated, null);
});

test('the cache counts a page by its whole data, so a long section listing is bounded though it has no HTML of its own', async () => {
  const section = Object.fromEntries(
    Array.from({ length: 300 }, (_, i) => [`pages/docs/big/p${String(i).padStart(3, '0')}.md`, makePage({ title: `Page ${i}` })]),
  );
  const { site, messages } = await makeSite({
    en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/docs/index.md': makePage({ title: 'Docs' }), ...section },
  });
  const small = (key: string) =>
    JSON.stringify(buildPageStore({ site, messages, publicUrl: PUBLIC_URL, build: 'b1' }).find('en', key)).length;
  const bound = small('') * 2;
  assert.ok(small('docs/big') > bound, 'the listing is larger than the bound');
  const store = buildPageStore({ site, messages, publicUrl: PUBLIC_URL, build: 'b1', maxCachedChars: bound });
  assert.equal(store.find('en', ''), store.find('en', ''), 'a page within the bound is kept');
  assert.notEqual(store.find('en', 'docs/big'), store.find('en', 'docs/big'), 'a listing over the bound is made again, not kept');
});
