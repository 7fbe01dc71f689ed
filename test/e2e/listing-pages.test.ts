import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { longSectionRoot } from '../helpers/long-section.ts';

// A 600-page section's listing pages in Chromium: the section's "Next" link and the pages'
// previous and next are client navigations (page data, no document), and each page shows
// its part of the listing with its own head.

const e2e = withServerAndBrowser({ LOCALES_DIR: longSectionRoot(600).localesDir, LOCALES: 'en,de,ar', DEFAULT_LOCALE: 'en' });

test('previous and next lead through the numbered pages by client navigation, each with its own list and head', async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  const documents: string[] = [];
  const data: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
    if (request.url().includes('/_data/')) data.push(new URL(request.url()).pathname);
  });
  await page.goto(`${e2e.server.url}/de/docs/gross`);
  await page.waitForSelector('html[data-hydrated]');

  await page.click('a[rel="next"]');
  await page.waitForURL(`${e2e.server.url}/de/docs/gross/~/2`);
  assert.equal(await page.textContent('h1'), 'Groß, Seite 2 von 3');
  assert.match(await page.title(), /^Groß, Seite 2 von 3 · /);
  assert.equal(await page.getAttribute('link[rel="canonical"]', 'href'), 'https://example.test/de/docs/gross/~/2');
  assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
  assert.equal(await page.locator('.docs-listing li').count(), 250);

  await page.click('a[rel="next"]');
  await page.waitForURL(`${e2e.server.url}/de/docs/gross/~/3`);
  assert.equal(await page.locator('.docs-listing li').count(), 100);
  assert.ok(await page.isVisible('.docs-listing a[href="/de/docs/gross/tool7"]'), 'the translated page, under its own title');
  // The filter narrows the page's part of the listing (tool550..tool559 are on this page).
  await page.fill('.docs-listing input[type="search"]', 'tool55');
  assert.equal(await page.locator('.docs-listing li').count(), 10);

  await page.click('a[rel="prev"]');
  await page.waitForURL(`${e2e.server.url}/de/docs/gross/~/2`);
  await page.click('a[rel="prev"]');
  await page.waitForURL(`${e2e.server.url}/de/docs/gross`);
  assert.equal(await page.textContent('h1'), 'Groß');
  assert.equal(await page.locator('meta[name="robots"]').count(), 0, 'the section’s page is indexed again');

  assert.deepEqual(documents, ['/de/docs/gross'], 'one document: every later page came as page data');
  assert.ok(
    data.some((path) => path.endsWith('/de/docs/gross/~/2.json')),
    data.join(' '),
  );
  await context.close();
});
