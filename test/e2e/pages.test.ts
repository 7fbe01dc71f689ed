import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';

/** What a visitor sees, in real Chromium against the built server. */
const e2e = withServerAndBrowser();

async function open(path: string, locale = 'en-US'): Promise<{ page: Page; problems: string[] }> {
  const context = await e2e.browser.newContext({ locale });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(e2e.server.url + path, { waitUntil: 'networkidle' });
  return { page, problems };
}

test('an English visitor arriving at / lands on the English home page', async () => {
  const { page, problems } = await open('/', 'en-US');
  assert.equal(new URL(page.url()).pathname, '/en');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.ok((await page.locator('h1').innerText()).length > 0);
  assert.ok(await page.getByRole('link', { name: 'Docs', exact: true }).isVisible());
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('an Arabic page reads right to left, with Arabic navigation and the switcher', async () => {
  const { page, problems } = await open('/ar/docs/guides/install', 'ar');
  assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).direction), 'rtl');
  const h1 = await page.locator('h1').innerText();
  assert.match(h1, /[\u0600-\u06FF]/, 'the heading is in Arabic script');
  // In RTL the sidebar sits to the right of the article.
  const sidebar = await page.locator('.docs-sidebar').boundingBox();
  const article = await page.locator('.docs-article').boundingBox();
  assert.ok(sidebar && article && sidebar.x > article.x, 'the sidebar is on the right');
  assert.ok(await page.locator('.language-switcher a[hreflang="en"]').isVisible());
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('following the language switcher keeps the page and changes the language', async () => {
  const { page } = await open('/en/docs/routing');
  await page.locator('.language-switcher a[hreflang="de"]').click();
  await page.waitForURL(/\/de\/docs\/routing$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  await page.context().close();
});

test('the version switcher keeps the page and the language, and the language switcher stays in the version', async () => {
  const { page, problems } = await open('/de/docs/anleitungen/installation', 'de');
  await page.locator('[data-version-switch] a[data-version="0.1"]').click();
  await page.waitForURL(/\/de\/docs\/0\.1\/anleitungen\/installation$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  const banner = page.locator('[data-notice="version"]');
  assert.match(await banner.innerText(), /0\.1/);
  assert.equal(await banner.locator('a').getAttribute('href'), '/de/docs/anleitungen/installation');
  await page.locator('.language-switcher a[hreflang="ja"]').click();
  await page.waitForURL(/\/ja\/docs\/0\.1\/guides\/install$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  await page.locator('[data-version-switch] a[data-version="0.2"]').click();
  await page.waitForURL(/\/ja\/docs\/guides\/install$/);
  assert.equal(await page.locator('[data-notice="version"]').count(), 0);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test("the version switcher goes to that version's docs home when it lacks the page", async () => {
  const { page } = await open('/fr/docs/versions', 'fr');
  await page.locator('[data-version-switch] a[data-version="0.1"]').click();
  await page.waitForURL(/\/fr\/docs\/0\.1$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  await page.context().close();
});
