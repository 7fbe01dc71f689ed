import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atomFeed, type FeedEntry, type FeedInput, xml } from '../../../src/server/site/atom-feed.ts';
import { ATOM_NS, atomChildren, atomText, parseXml } from '../../helpers/xml.ts';

/** A title with everything XML and HTML care about, right-to-left text and an emoji. */
const HOSTILE_TITLE = `<b>Tom & "Jerry"</b> it's مرحبا بالعالم 🎉`;

function makeEntry(overrides: Partial<FeedEntry> = {}): FeedEntry {
  return {
    id: 'tag:example.test,2026-01-02:en/blog/a',
    title: 'A post',
    url: 'https://example.test/en/blog/a',
    summary: 'What it is about.',
    published: '2026-01-02',
    updated: '2026-01-02',
    author: 'Ada',
    ...overrides,
  };
}

function makeFeed(overrides: Partial<FeedInput> = {}): FeedInput {
  return {
    id: 'tag:example.test,2026-01-02:en/blog',
    title: 'Blog · Site',
    subtitle: 'News.',
    language: 'en',
    self: 'https://example.test/en/blog/feed.xml',
    alternate: 'https://example.test/en/blog',
    siteName: 'Site',
    entries: [makeEntry()],
    ...overrides,
  };
}

test('the feed is Atom: feed metadata, self and alternate links, and each entry element by element', () => {
  const text = atomFeed(
    makeFeed({
      entries: [
        makeEntry({ id: 'tag:x,2026-03-01:en/blog/b', title: 'B', updated: '2026-03-05', published: '2026-03-01', author: undefined }),
        makeEntry(),
      ],
    }),
  );
  assert.ok(text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n'));
  const feed = parseXml(text);
  assert.equal(feed.uri, ATOM_NS);
  assert.equal(feed.name, 'feed');
  assert.equal(feed.attributes['xml:lang'], 'en');
  assert.equal(atomText(feed, 'id'), 'tag:example.test,2026-01-02:en/blog');
  assert.equal(atomText(feed, 'title'), 'Blog · Site');
  assert.equal(atomText(feed, 'subtitle'), 'News.');
  assert.equal(atomText(feed, 'updated'), '2026-03-05T00:00:00Z', 'the newest entry’s update');
  assert.equal(atomText(atomChildren(feed, 'author')[0]!, 'name'), 'Site');
  const links = atomChildren(feed, 'link').map((link) => [link.attributes.rel, link.attributes.type, link.attributes.href]);
  assert.deepEqual(links, [
    ['self', 'application/atom+xml', 'https://example.test/en/blog/feed.xml'],
    ['alternate', 'text/html', 'https://example.test/en/blog'],
  ]);

  const [first, second] = atomChildren(feed, 'entry');
  assert.equal(atomText(first!, 'id'), 'tag:x,2026-03-01:en/blog/b');
  assert.equal(atomText(first!, 'published'), '2026-03-01T00:00:00Z');
  assert.equal(atomText(first!, 'updated'), '2026-03-05T00:00:00Z');
  assert.deepEqual(atomChildren(first!, 'author'), [], 'no author of its own: it inherits the feed’s');
  assert.equal(atomText(second!, 'title'), 'A post');
  assert.equal(atomText(second!, 'summary'), 'What it is about.');
  assert.equal(atomText(atomChildren(second!, 'author')[0]!, 'name'), 'Ada');
  const [link] = atomChildren(second!, 'link');
  assert.equal(link!.attributes.rel, 'alternate');
  assert.equal(link!.attributes.href, 'https://example.test/en/blog/a');
  assert.equal('xml:lang' in second!.attributes, false, 'in the feed’s own language');
});

test('a title with < & " \' right-to-left text and an emoji stays well-formed and reads back as it was written', () => {
  const text = atomFeed(
    makeFeed({ title: HOSTILE_TITLE, entries: [makeEntry({ title: HOSTILE_TITLE, summary: HOSTILE_TITLE, author: HOSTILE_TITLE })] }),
  );
  assert.doesNotMatch(text, /<b>/, 'no markup got through');
  const feed = parseXml(text);
  const entry = atomChildren(feed, 'entry')[0]!;
  assert.equal(atomText(feed, 'title'), HOSTILE_TITLE);
  assert.equal(atomText(entry, 'title'), HOSTILE_TITLE);
  assert.equal(atomText(entry, 'summary'), HOSTILE_TITLE);
  assert.equal(atomText(atomChildren(entry, 'author')[0]!, 'name'), HOSTILE_TITLE);
});

test('characters XML cannot hold (control characters, a lone surrogate) are dropped, not written', () => {
  const title = 'A\u0000B\u0007C\u001bD\u0085E\ud800F\uFFFEG\tH';
  const text = atomFeed(makeFeed({ entries: [makeEntry({ title, url: 'https://example.test/en/blog/a?x=1&y="2"' })] }));
  const entry = atomChildren(parseXml(text), 'entry')[0]!;
  assert.equal(atomText(entry, 'title'), 'ABCDEFG\tH');
  assert.equal(atomChildren(entry, 'link')[0]!.attributes.href, 'https://example.test/en/blog/a?x=1&y="2"');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
});

test('an untranslated post is marked with its own language', () => {
  const feed = parseXml(atomFeed(makeFeed({ language: 'ja', entries: [makeEntry({ language: 'en' })] })));
  assert.equal(feed.attributes['xml:lang'], 'ja');
  assert.equal(atomChildren(feed, 'entry')[0]!.attributes['xml:lang'], 'en');
});

test('a blog with no posts yet is still a valid feed, updated at the epoch', () => {
  const feed = parseXml(atomFeed(makeFeed({ entries: [] })));
  assert.equal(atomText(feed, 'updated'), '1970-01-01T00:00:00Z');
  assert.deepEqual(atomChildren(feed, 'entry'), []);
});

test('xml() escapes the five special characters, for text and attributes alike', () => {
  assert.equal(xml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(xml('مرحبا 🎉 ü'), 'مرحبا 🎉 ü');
});
