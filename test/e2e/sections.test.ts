import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';

// The docs sidebar's sections in Chromium: each a <details> that folds without a script,
// and with one, folded as the reader left it on every page of the visit (sessionStorage).

const e2e = withServerAndBrowser();
const SECTION = 'details[data-docs-section="/en/docs/deploy"]';
const wide = { viewport: { width: 1280, height: 900 } };

const isOpen = (page: Page) => page.$eval(SECTION, (details) => (details as HTMLDetailsElement).open);
const herokuShown = (page: Page) => page.isVisible('.docs-sidebar a[href="/en/docs/deploy/heroku"]');

test('without JavaScript a section folds and unfolds by its toggle', async () => {
  const context = await e2e.browser.newContext({ ...wide, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${e2e.server.url}/en/docs/deploy/docker`);
  assert.equal(await isOpen(page), true, "the current page's section is open");
  assert.equal(await herokuShown(page), true);
  await page.click(`${SECTION} > summary`);
  assert.equal(await isOpen(page), false);
  assert.equal(await herokuShown(page), false);
  await page.click(`${SECTION} > summary`);
  assert.equal(await herokuShown(page), true);
  await context.close();
});

test('with JavaScript, a folded section stays folded on the next pages of the visit, and a new visit starts open', async () => {
  const kept = (page: Page) => page.waitForSelector(`html[data-hydrated] ${SECTION}[data-kept]`, { state: 'attached' });
  const context = await e2e.browser.newContext(wide);
  const page = await context.newPage();
  await page.goto(`${e2e.server.url}/en/docs/deploy/docker`);
  await kept(page);
  // The toggle is named by the section's pages.
  assert.match((await page.textContent(`${SECTION} > summary`)) ?? '', /Deploy/);
  await page.click(`${SECTION} > summary`);
  assert.equal(await isOpen(page), false);

  // A client navigation to the section's own page: folded as the reader left it.
  await page.click('.docs-sidebar a[href="/en/docs/deploy"]');
  await page.waitForURL(`${e2e.server.url}/en/docs/deploy`);
  await kept(page);
  assert.equal(await isOpen(page), false, 'folded after a client navigation');
  // A new load in the same tab: still folded.
  await page.goto(`${e2e.server.url}/en/docs/deploy/heroku`);
  await kept(page);
  assert.equal(await isOpen(page), false, 'folded after a new load');

  // Unfolded again: remembered too.
  await page.click(`${SECTION} > summary`);
  await page.reload();
  await kept(page);
  assert.equal(await isOpen(page), true);
  await page.click(`${SECTION} > summary`);
  await context.close();

  const fresh = await (await e2e.browser.newContext(wide)).newPage();
  await fresh.goto(`${e2e.server.url}/en/docs/deploy/docker`);
  await kept(fresh);
  assert.equal(await isOpen(fresh), true, 'a new visit starts with the section open');
  await fresh.context().close();
});
