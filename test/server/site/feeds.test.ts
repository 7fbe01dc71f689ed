import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFeeds, FEED_ENTRIES } from '../../../src/server/site/feeds.ts';
import { buildPageStore } from '../../../src/server/pages/page-store.ts';
import { makePage, makeSite } from '../../helpers/content.ts';
import { atomChildren, atomText, parseXml } from '../../helpers/xml.ts';

type Tree = Record<string, Record<string, string>>;

/** A blog in en and de; de localizes its blog's path and one post's (`slug:`), fr has no blog of its own. */
function blogTree({ slugs = true, extra = {} as Record<string, string> } = {}): Tree {
  return {
    en: {
      'pages/index.md': makePage(),
      'pages/blog/index.md': makePage({ title: 'Blog', description: 'News.' }),
      'pages/blog/a.md': makePage({ title: 'A', date: '2026-01-02' }),
      'pages/blog/b.md': makePage({ title: 'B', date: '2026-02-03' }),
      ...extra,
    },
    de: {
      'pages/index.md': makePage(),
      'pages/blog/index.md': makePage({ title: 'Neuigkeiten', description: 'Neues.', ...(slugs && { slug: 'neuigkeiten' }) }),
      'pages/blog/a.md': makePage({ title: 'A auf Deutsch', date: '2026-01-02', ...(slugs && { slug: 'a-de' }) }),
    },
    fr: { 'pages/index.md': makePage() },
  };
}

/** The feeds of a site, with its paths as the server resolves them from its `slug:` front matter. */
async function makeFeeds(tree: Tree = blogTree()) {
  const { site, messages } = await makeSite(tree);
  const store = buildPageStore({ site, messages, publicUrl: 'https://example.test', build: 'b1' });
  return buildFeeds({
    site,
    siteName: (locale) => store.intl(locale).formatMessage({ id: 'site.name' }),
    publicUrl: 'https://example.test',
  });
}

test('each locale’s feed sits under its blog’s served path, localized or not', async () => {
  const feeds = await makeFeeds();
  assert.ok(feeds.at('/de/neuigkeiten/feed.xml'));
  assert.equal(feeds.at('/de/blog/feed.xml'), undefined, 'not under the default locale’s path');
  assert.deepEqual(feeds.linkOf('de'), { title: 'Neuigkeiten · Site', href: 'https://example.test/de/neuigkeiten/feed.xml' });
  // fr translates no blog: it serves the English one, and its feed.
  assert.deepEqual(feeds.linkOf('fr'), { title: 'Blog · Site', href: 'https://example.test/fr/blog/feed.xml' });
  assert.equal(feeds.linkOf('xx'), null);
});

test('entries link the posts’ served paths; ids are made of the page key and date, so they survive a localized slug', async () => {
  const feeds = await makeFeeds();
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
  const plain = await makeFeeds(blogTree({ slugs: false }));
  const same = parseXml(plain.at('/de/blog/feed.xml')!.body.identity.toString());
  assert.equal(atomText(atomChildren(same, 'entry')[1]!, 'id'), 'tag:example.test,2026-01-02:de/blog/a');
});

test('a feed shows the newest posts, and its id stays when a new post pushes the oldest out of the window', async () => {
  const posts = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `pages/blog/p${i}.md`,
        makePage({ title: `P${i}`, date: `2025-03-${String(1 + (i % 28)).padStart(2, '0')}` }),
      ]),
    );
  const before = parseXml((await makeFeeds(blogTree({ extra: posts(FEED_ENTRIES) }))).at('/en/blog/feed.xml')!.body.identity.toString());
  const after = parseXml(
    (await makeFeeds(blogTree({ extra: { ...posts(FEED_ENTRIES), 'pages/blog/new.md': makePage({ title: 'New', date: '2026-05-01' }) } })))
      .at('/en/blog/feed.xml')!
      .body.identity.toString(),
  );
  assert.equal(atomChildren(after, 'entry').length, FEED_ENTRIES);
  assert.equal(atomText(atomChildren(after, 'entry')[0]!, 'title'), 'New');
  assert.equal(atomText(after, 'id'), atomText(before, 'id'));
  assert.equal(atomText(after, 'id'), 'tag:example.test,2025-03-01:en/blog');
});

test('the ETag changes with the feed’s text', async () => {
  const a = (await makeFeeds()).at('/en/blog/feed.xml')!;
  const b = (await makeFeeds()).at('/en/blog/feed.xml')!;
  assert.match(a.etag, /^"[\w-]{27}"$/);
  assert.equal(a.etag, b.etag, 'same text, same tag');
  const c = (await makeFeeds(blogTree({ extra: { 'pages/blog/b.md': makePage({ title: 'B, retitled', date: '2026-02-03' }) } }))).at(
    '/en/blog/feed.xml',
  )!;
  assert.notEqual(a.etag, c.etag);
});
