import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataUrl } from '../../../src/routes/page-data.ts';
import { SIDEBAR_WINDOW } from '../../../src/server/pages/screen-data.ts';
import { serveApp } from '../../helpers/app.ts';
import { makeLocales, makePage } from '../../helpers/content.ts';
import { ROOT } from '../../helpers/server.ts';
import { get } from '../../helpers/http.ts';

// A docs section far longer than a sidebar shows, served as a reader gets it: what a
// page carries stays the same size whatever the section's, and every page of the
// section can still be reached by links, from the section's own page.

/** The site's own UI messages: the pages render every part of the layout. */
const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));

function flatSite(count: number): string {
  const pages: Record<string, string | object> = {
    'messages.json': messages('en'),
    'pages/index.md': makePage({ title: 'Home' }),
    'pages/docs/index.md': makePage({ title: 'Docs' }),
    'pages/docs/big/index.md': makePage({ title: 'Big' }),
  };
  for (let n = 0; n < count; n++) pages[`pages/docs/big/tool${n}.md`] = makePage({ title: `tool${n}` });
  return makeLocales({ en: pages, de: { 'messages.json': messages('de'), 'pages/docs/big/tool7.md': makePage({ title: 'werkzeug7' }) } });
}

let small: Awaited<ReturnType<typeof serveApp>>;
let large: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  small = await serveApp({ LOCALES_DIR: flatSite(40), LOCALES: 'en,de', DEFAULT_LOCALE: 'en' });
  large = await serveApp({ LOCALES_DIR: flatSite(300), LOCALES: 'en,de', DEFAULT_LOCALE: 'en' });
});
after(() => {
  small.close();
  large.close();
});

/** Links to pages of the section in a document or page data. */
const sectionLinks = (text: string) => text.match(/\/(?:en|de)\/docs\/big\/tool\d+/g) ?? [];

test('a page of a 300-page section carries no more sidebar than one of a 40-page section, HTML and page data alike', async () => {
  for (const locale of ['en', 'de']) {
    const path = `/${locale}/docs/big/tool20`;
    const [smallPage, largePage] = await Promise.all([get(small.url, path), get(large.url, path)]);
    assert.equal(largePage.status, 200, `${path}: ${largePage.status} ${largePage.headers.location ?? ''}`);
    assert.equal(sectionLinks(largePage.body).length, sectionLinks(smallPage.body).length, path);
    assert.ok(
      new Set(sectionLinks(largePage.body)).size <= SIDEBAR_WINDOW + 2,
      'the window, previous and next (the page is in the window)',
    );
    assert.match(largePage.body, /href="\/(en|de)\/docs\/big">(All 300 pages|Alle 300 Seiten)</);
    const data = await get(large.url, dataUrl(large.site.manifest.build, path));
    assert.equal(data.status, 200);
    const smallData = await get(small.url, dataUrl(small.site.manifest.build, path));
    assert.ok(data.body.length < 2 * smallData.body.length);
    assert.ok(new Set(sectionLinks(data.body)).size <= SIDEBAR_WINDOW + 2, 'the window, previous and next');
  }
});

test('the section’s page and its numbered page link to every one of its pages, translated and not', async () => {
  const listed = new Set<string>();
  let body = '';
  for (const path of ['/de/docs/big', '/de/docs/big/~/2']) {
    const page = await get(large.url, path);
    assert.equal(page.status, 200, path);
    const listing = page.body.slice(page.body.indexOf('docs-listing'), page.body.indexOf('</section>', page.body.indexOf('docs-listing')));
    for (const link of sectionLinks(listing)) listed.add(link);
    body += listing;
  }
  assert.equal(listed.size, 300);
  assert.match(body, /<a href="\/de\/docs\/big\/tool8" lang="en">tool8<\/a>/);
  assert.match(body, /<a href="\/de\/docs\/big\/tool7">werkzeug7<\/a>/);
});
