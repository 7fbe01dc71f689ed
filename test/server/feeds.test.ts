import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFeeds } from '../../src/server/feeds.ts';
import { buildPageStore } from '../../src/server/page-store.ts';
import { makePage, makeSite } from '../helpers/content.ts';
import { atomChildren, atomText, parseXml } from '../helpers/xml.ts';

async function makeFeeds(pathOf: (locale: string, slug: string) => string | undefined) {
  const { site, messages } = await makeSite({
    en: {
      'pages/index.md': makePage(),
      'pages/blog/index.md': makePage({ title: 'Blog', description: 'News.' }),
      'pages/blog/a.md': makePage({ title: 'A', date: '2026-01-02' }),
      'pages/blog/b.md': makePage({ title: 'B', date: '2026-02-03' }),
    },
    de: {
      'pages/index.md': makePage(),
      'pages/blog/index.md': makePage({ title: 'Neuigkeiten', description: 'Neues.' }),
      'pages/blog/a.md': makePage({ title: 'A auf Deutsch', date: '2026-01-02' }),
    },
    fr: { 'pages/index.md': makePage() },
  });
  const store = buildPageStore({ site, messages, publicUrl: 'https://example.test', build: 'b1' });
  return buildFeeds({ site, store, publicUrl: 'https://example.test', pathOf });
}

const LOCALIZED: Record<string, string> = {
  'en\0blog': '/en/blog',
  'en\0blog/a': '/en/blog/a',
  'en\0blog/b': '/en/blog/b',
  'de\0blog': '/de/neuigkeiten',
  'de\0blog/a': '/de/neuigkeiten/a-de',
  'de\0blog/b': '/de/neuigkeiten/b',
  'fr\0blog': '/fr/blog',
  'fr\0blog/a': '/fr/blog/a',
  'fr\0blog/b': '/fr/blog/b',
};
const localized = (locale: string, slug: string) => LOCALIZED[`${locale}\0${slug}`];

test('each locale’s feed sits under its blog’s served path, localized or not', async () => {
  const feeds = await makeFeeds(localized);
  assert.ok(feeds.at('/de/neuigkeiten/feed.xml'));
  assert.equal(feeds.at('/de/blog/feed.xml'), undefined, 'not under the default locale’s path');
  assert.deepEqual(feeds.linkOf('de'), { title: 'Neuigkeiten · Site', href: 'https://example.test/de/neuigkeiten/feed.xml' });
  // fr translates no blog: it serves the English one, and its feed.
  assert.deepEqual(feeds.linkOf('fr'), { title: 'Blog · Site', href: 'https://example.test/fr/blog/feed.xml' });
  assert.equal(feeds.linkOf('xx'), null);
});

test('entries link the posts’ served paths; ids are made of the page key and date, so they survive a localized slug', async () => {
  const feeds = await makeFeeds(localized);
  const feed = parseXml(feeds.at('/de/neuigkeiten/feed.xml')!.body.identity.toString());
  const entries = atomChildren(feed, 'entry');
  assert.deepEqual(
    entries.map((entry) => [atomText(entry, 'title'), atomChildren(entry, 'link')[0]!.attributes.href, entry.attributes['xml:lang']]),
    [
      ['B', 'https://example.test/de/neuigkeiten/b', 'en'],
      ['A auf Deutsch', 'https://example.test/de/neuigkeiten/a-de', undefined],
    ],
    'newest first; the untranslated post marked English',
  );
  assert.equal(atomText(entries[1]!, 'id'), 'tag:example.test,2026-01-02:de/blog/a');
  assert.equal(atomText(feed, 'id'), 'tag:example.test,2026-01-02:de/blog');
  const plain = await makeFeeds((locale, slug) => `/${locale}/${slug}`);
  const same = parseXml(plain.at('/de/blog/feed.xml')!.body.identity.toString());
  assert.equal(atomText(atomChildren(same, 'entry')[1]!, 'id'), 'tag:example.test,2026-01-02:de/blog/a');
});

test('a post the locale does not serve is left out, and a locale without a blog path has no feed', async () => {
  const feeds = await makeFeeds((locale, slug) =>
    locale === 'fr' && slug === 'blog' ? undefined : slug === 'blog/b' ? undefined : localized(locale, slug),
  );
  assert.equal(feeds.linkOf('fr'), null);
  const feed = parseXml(feeds.at('/en/blog/feed.xml')!.body.identity.toString());
  assert.deepEqual(
    atomChildren(feed, 'entry').map((entry) => atomText(entry, 'title')),
    ['A'],
  );
});

test('the ETag changes with the feed’s text', async () => {
  const a = (await makeFeeds(localized)).at('/en/blog/feed.xml')!;
  const b = (await makeFeeds((locale, slug) => `/${locale}/${slug}/`.replace(/\/$/, ''))).at('/en/blog/feed.xml')!;
  assert.match(a.etag, /^"[\w-]{27}"$/);
  assert.equal(a.etag, b.etag, 'same text, same tag');
  const c = (await makeFeeds((locale, slug) => (slug === 'blog/b' ? '/en/blog/b-2' : localized(locale, slug)))).at('/en/blog/feed.xml')!;
  assert.notEqual(a.etag, c.etag);
});
