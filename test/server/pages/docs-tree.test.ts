import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { ROOT_DIR } from '../../../src/server/config.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { treeHtml } from '../../../src/server/pages/docs-tree.ts';
import { makeServerIntls } from '../../../src/server/site/server-intl.ts';
import type { NavNode } from '../../../src/routes/types.ts';

const intls = makeServerIntls(loadMessages(join(ROOT_DIR, 'locales'), ['en', 'de'], 'en'), 'en');

const node = (title: string, path: string, more: Partial<NavNode> = {}): NavNode => ({ title, path, children: [], ...more });

/** The tree's HTML as a DOM, under one element. */
function parsed(html: string) {
  return parseHTML(`<!DOCTYPE html><html><body><nav>${html}</nav></body></html>`).document.querySelector('nav')!;
}

test('a title or path that holds markup stays text: no element or attribute comes out of it', () => {
  const title = `<img src=x onerror="alert(1)"> & 'quoted' "title"`;
  const path = `/en/docs/a"onmouseover="alert(1)`;
  const nav = parsed(treeHtml([node(title, path)], '/en/docs/other', intls.get('en')!));
  assert.equal(nav.querySelectorAll('img, [onerror], [onmouseover]').length, 0);
  const link = nav.querySelector('a')!;
  assert.equal(link.textContent, title);
  assert.equal(link.getAttribute('href'), path);
  assert.deepEqual([...link.getAttributeNames()], ['href']);
});

test('the page’s own entry is marked current, and an entry in another language says which', () => {
  const tree = [node('Start', '/de/docs/start'), node('Install', '/de/docs/install', { lang: 'en' })];
  const links = [...parsed(treeHtml(tree, '/de/docs/start', intls.get('de')!)).querySelectorAll('a')];
  assert.deepEqual(
    links.map((link) => [link.textContent, link.getAttribute('aria-current'), link.getAttribute('lang')]),
    [
      ['Start', 'page', null],
      ['Install', null, 'en'],
    ],
  );
});

test('an open section lists its pages in a disclosure named in the locale, a folded one starts closed', () => {
  const tree = [
    node('Guides', '/de/docs/guides', { children: [node('Install', '/de/docs/guides/install')] }),
    node('Archive', '/de/docs/archive', { children: [node('Old', '/de/docs/archive/old')], collapsed: true }),
  ];
  const nav = parsed(treeHtml(tree, '/de/docs/guides/install', intls.get('de')!));
  const [open, folded] = [...nav.querySelectorAll('details')];
  assert.equal(open!.getAttribute('data-docs-section'), '/de/docs/guides');
  assert.ok(open!.hasAttribute('open') && !open!.hasAttribute('data-collapsed'));
  assert.equal(open!.querySelector('summary')!.textContent, 'Seiten von Guides');
  assert.equal(open!.querySelector('ul > li > a')!.getAttribute('aria-current'), 'page');
  assert.ok(!folded!.hasAttribute('open') && folded!.hasAttribute('data-collapsed'));
  assert.equal(nav.querySelectorAll(':scope > ul > li').length, 2, 'sections nest inside their entry, not beside it');
});

test('a section shown as a window of its pages links to its own page, which lists them all, with the count', () => {
  const window = [0, 1, 2].map((n) => node(`Page ${n}`, `/en/docs/big/p${n}`));
  const nav = parsed(treeHtml([node('Big', '/en/docs/big', { children: window, total: 4613 })], '/en/docs/big/p1', intls.get('en')!));
  assert.equal(nav.querySelectorAll('details li').length, 3);
  const all = nav.querySelector('details > a.docs-all')!;
  assert.equal(all.getAttribute('href'), '/en/docs/big');
  assert.equal(all.textContent, 'All 4,613 pages');
});
