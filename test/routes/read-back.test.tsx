import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHTML } from 'linkedom';
import { renderToString } from 'react-dom/server';
import { App } from '../../src/routes/app.tsx';
import { readLocales, readSidebar, readToc } from '../../src/routes/read-back.ts';
import type { PageData } from '../../src/routes/types.ts';
import { loadConfig } from '../../src/server/config.ts';
import { searchPageOf } from '../../src/server/pages/decide.ts';
import { prepareSite } from '../../src/server/site/prepare-site.ts';

// Each reader of read-back.ts against the component that writes its markup,
// rendered as the server renders it, for every page of the default site (every
// screen, every locale, Arabic right to left among them), a not-found page and a
// search page: what the embedded payload leaves out must come back whole.

const config = loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test', LOG_LEVEL: 'silent' });
const { store, decide, search } = await prepareSite(config);

/** The page's visible markup, as a DOM the readers can walk. */
function rendered(page: PageData) {
  const html = renderToString(<App page={page} intl={store.intl(page.locale)} />);
  return parseHTML(`<!DOCTYPE html><html><body><div id="root">${html}</div></body></html>`).document;
}

/** HTML as a DOM serializes it once parsed (`&#x27;` comes back as `'`); `plain`: without its class attributes. */
function serialized(html: string, { plain = false } = {}): string {
  const holder = parseHTML(`<!DOCTYPE html><html><body><div>${html}</div></body></html>`).document.querySelector('div')!;
  if (plain) for (const element of holder.querySelectorAll('[class]')) element.removeAttribute('class');
  return holder.innerHTML;
}

/** As the wire carries it: JSON leaves out keys whose value is undefined (`lang` of a link in the page's own language). */
const wire = <T,>(value: T): T => JSON.parse(JSON.stringify(value));

const pages: PageData[] = [];
for (const { locale, key } of store.entries()) pages.push(store.find(locale, key)!);
for (const locale of config.locales) {
  for (const [path, query] of [
    [`/${locale}/nope`, ''],
    [`/${locale}/search`, '?q=install'],
  ] as const) {
    const decision = decide({ path, search: query, cookie: undefined, acceptLanguage: undefined });
    if (decision.kind === 'search') pages.push(await searchPageOf(decision, store, search));
    else if (decision.kind === 'page') pages.push(decision.page);
    else assert.fail(`${path}${query}: ${decision.kind}`);
  }
}

test('the pages read back cover every screen, in a right-to-left locale too', () => {
  const kinds = new Set(pages.map((page) => page.screen.kind));
  assert.deepEqual([...kinds].sort(), ['article', 'blog-index', 'blog-post', 'docs', 'home', 'not-found', 'search']);
  assert.ok(pages.some((page) => page.dir === 'rtl' && page.screen.kind === 'docs'));
});

test('the language switcher reads back as the page’s locales, on every page', () => {
  for (const page of pages) assert.deepEqual(readLocales(rendered(page)), wire(page.locales), page.path);
});

test('a docs page’s tree and "On this page" read back as its data, nested sections and fallback languages included', () => {
  let nested = 0;
  let withToc = 0;
  for (const page of pages) {
    if (page.screen.kind !== 'docs') continue;
    const document = rendered(page);
    assert.equal(readSidebar(document), serialized(page.screen.sidebar), page.path);
    // A heading's level is its depth in the list: what the list renders by.
    assert.deepEqual(readToc(document), page.screen.toc, page.path);
    if (page.screen.sidebar.includes('<details')) nested++;
    if (page.screen.toc.length > 0) withToc++;
  }
  assert.ok(nested > 0 && withToc > 0, 'the site has open sections and contents lists to read');
});

test('the readers find nothing on screens that do not show those parts', () => {
  for (const page of pages) {
    if (page.screen.kind === 'docs') continue;
    const document = rendered(page);
    assert.equal(readSidebar(document), '', page.path);
    assert.deepEqual(readToc(document), [], page.path);
  }
});

test('the readers do not depend on the stylesheet’s classes', () => {
  const page = pages.find((candidate) => candidate.screen.kind === 'docs' && candidate.screen.toc.length > 0)!;
  const document = rendered(page);
  for (const element of document.querySelectorAll('[class]')) element.removeAttribute('class');
  assert.ok(page.screen.kind === 'docs');
  assert.equal(readSidebar(document), serialized(page.screen.sidebar, { plain: true }));
  assert.deepEqual(readToc(document), page.screen.toc);
  assert.deepEqual(readLocales(document), wire(page.locales));
});
