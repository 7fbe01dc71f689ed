import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl, escapeJsonForHtml, parseDataUrl, serializePayload, serializePayloadRest } from '../../src/routes/page-data.ts';
import type { PageData } from '../../src/routes/types.ts';

const hostile = ['</script><script>alert(1)</script>', '<!-- x', 'a\u2028b\u2029c', '&amp; <b>', '"quotes" \\ back'];

for (const text of hostile) {
  test(`escaped JSON of ${JSON.stringify(text)} cannot break out and parses back to the same value`, () => {
    const escaped = escapeJsonForHtml(JSON.stringify({ text }));
    assert.doesNotMatch(escaped, /<|>|&|\u2028|\u2029/);
    assert.deepEqual(JSON.parse(escaped), { text });
  });
}

test('dataUrl and parseDataUrl are inverses', () => {
  for (const path of ['/en', '/de/docs/guides/install', '/fr/caf%C3%A9']) {
    assert.deepEqual(parseDataUrl(dataUrl('b1', path)), { build: 'b1', pagePath: path });
  }
});

test('parseDataUrl refuses what is not a data URL', () => {
  for (const path of ['/en', '/_data/', '/_data/b1.json', '/_data//en.json', '/_data/b1/en']) assert.equal(parseDataUrl(path), null);
});

test('the embedded payload leaves out the content HTML (it is in the document already)', () => {
  const page = makePage('<p>Long content that must appear only once</p>');
  const json = serializePayload({ page });
  assert.doesNotMatch(json, /Long content/);
  assert.equal(JSON.parse(json).page.screen.title, 'T');
});

test('a payload with its shared part serialized ahead is the same JSON, escaped', () => {
  const page = makePage('<p>x</p>');
  const messages = { 'a.b': [{ type: 0, value: '</script><!--' }] } as never;
  const monitoring = { dsn: 'https://k@o.example/1', tunnel: '/monitoring', environment: 'e', release: 'r', tracesSampleRate: 0.1 };
  for (const payload of [{ page }, { page, messages }, { page, messages, monitoring }]) {
    const json = serializePayload(payload, serializePayloadRest(payload));
    assert.equal(json, serializePayload(payload));
    assert.doesNotMatch(json, /<|>|&/);
    assert.deepEqual(JSON.parse(json), { ...payload, page: { ...page, head: null, locales: [], screen: { ...page.screen, html: '' } } });
  }
});

test('the embedded payload leaves out the head (the document’s <head> holds it, and the browser reads it back)', () => {
  const page = makePage('<p>x</p>');
  page.head = {
    ...page.head,
    title: 'Only in the title',
    links: [{ rel: 'alternate', type: 'application/atom+xml', href: '/en/blog/feed.xml' }],
    meta: [{ property: 'og:title', content: 'Only in the head' }],
    jsonLd: '{"@type":"WebSite"}',
  };
  const json = serializePayload({ page });
  assert.doesNotMatch(json, /Only in the|WebSite|feed\.xml/);
  assert.equal(JSON.parse(json).page.head, null);
});

test('the embedded payload leaves out the language switcher, and a docs page’s tree and contents (the document shows them, and the browser reads them back)', () => {
  const page = makePage('<p>x</p>');
  page.locales = [{ locale: 'de', name: 'Deutsch only-in-the-switcher', path: '/de/ueber', dir: 'ltr' }];
  page.screen = {
    kind: 'docs',
    title: 'T',
    html: '<p>x</p>',
    sidebar: '<ul><li><a href="/en/docs/a">Only in the tree</a></li></ul>',
    toc: [{ id: 'only-in-the-contents', text: 'Contents', level: 2 }],
    previous: { title: 'Before', path: '/en/docs/before' },
    next: null,
  };
  const json = serializePayload({ page });
  assert.doesNotMatch(json, /only-in-the|Only in the/);
  const { screen, locales } = JSON.parse(json).page;
  assert.deepEqual(locales, []);
  assert.deepEqual(screen, { ...page.screen, html: '', sidebar: '', toc: [] }, 'the rest of the screen stays');
});

function makePage(html: string): PageData {
  return {
    build: 'b',
    status: 200,
    locale: 'en',
    dir: 'ltr',
    path: '/en/about',
    head: { title: 'T', description: 'D', canonical: null, alternates: [], links: [], meta: [], jsonLd: null },
    nav: [{ label: 'nav.home', path: '/en' }],
    locales: [],
    fallback: null,
    outdated: null,
    updated: null,
    edit: null,
    screen: { kind: 'article', title: 'T', html },
  };
}
