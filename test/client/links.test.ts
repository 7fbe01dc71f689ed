import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHTML } from 'linkedom';

// The click rules of client navigation, without a browser: a DOM from linkedom, the
// page's location as a URL. test/e2e/navigation.test.ts clicks the same links in Chromium.

const { document, HTMLAnchorElement } = parseHTML('<!DOCTYPE html><html><body></body></html>');
Object.assign(globalThis, { HTMLAnchorElement, location: new URL('https://example.test/en/docs/routing?x=1') });
const { anchorOf, isPlainClick, pagePathOf } = await import('../../src/client/links.ts');

const LOCALES = new Set(['en', 'de', 'ar']);

function link(attributes: Record<string, string>, text = 'a link'): HTMLAnchorElement {
  const anchor = document.createElement('a');
  for (const [name, value] of Object.entries(attributes)) anchor.setAttribute(name, value);
  anchor.textContent = text;
  document.body.append(anchor);
  return anchor as unknown as HTMLAnchorElement;
}

const click = (changes: Partial<MouseEvent> = {}) =>
  ({ defaultPrevented: false, button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, ...changes }) as MouseEvent;

test('only a plain left click with no modifier, not already handled, is ours', () => {
  assert.equal(isPlainClick(click()), true);
  for (const changes of [
    { button: 1 },
    { button: 2 },
    { metaKey: true },
    { ctrlKey: true },
    { shiftKey: true },
    { altKey: true },
    { defaultPrevented: true },
  ]) {
    assert.equal(isPlainClick(click(changes)), false, JSON.stringify(changes));
  }
});

test('a click on an element inside a link is a click on the link; elsewhere, on none', () => {
  const anchor = link({ href: '/en/about' });
  const inner = document.createElement('span');
  anchor.append(inner);
  assert.equal(anchorOf({ target: inner } as unknown as Event), anchor);
  assert.equal(anchorOf({ target: document.body } as unknown as Event), null);
  assert.equal(anchorOf({ target: link({}) } as unknown as Event), null, 'an anchor without href');
});

test('links to our pages are taken over, by page-data key', () => {
  const cases: [href: string, expected: string][] = [
    ['/de/ueber-uns', '/de/ueber-uns'],
    ['https://example.test/ar', '/ar'],
    ['../about', '/en/about'],
    ['/en/docs/routing#fragments', '/en/docs/routing'],
    ['/en/search?q=install%20guide&page=2', '/en/search?q=install%20guide'],
  ];
  for (const [href, expected] of cases) assert.equal(pagePathOf(link({ href }), LOCALES), expected, href);
});

test('what the browser does better is left to it', () => {
  const cases: [attributes: Record<string, string>, why: string][] = [
    [{ href: 'https://elsewhere.example/en' }, 'another origin'],
    [{ href: '/en/about', target: '_blank' }, 'another tab'],
    [{ href: '/en/about', download: '' }, 'a download'],
    [{ href: '/en/blog/feed.xml', type: 'application/atom+xml' }, 'a media type (a feed)'],
    [{ href: '/sitemap.xml' }, 'not under a locale'],
    [{ href: '/fr/about' }, 'a locale this site does not have'],
    [{ href: '#fragments' }, 'a hash on the page shown'],
    [{ href: '/en/docs/routing?x=1#fragments' }, 'the same page and query, with a hash'],
  ];
  for (const [attributes, why] of cases) assert.equal(pagePathOf(link(attributes), LOCALES), null, why);
  assert.equal(pagePathOf(link({ href: '/en/about', target: '_self' }), LOCALES), '/en/about', 'target=_self is this tab');
});
