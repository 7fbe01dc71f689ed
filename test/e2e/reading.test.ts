import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { hasMarker, markWindow } from '../helpers/visit.ts';

/** Reading on any screen: every page fits, the page comes first, the visitor's settings are respected. */
const e2e = withServerAndBrowser();

const INSTALL = '/en/docs/guides/install';

/** A page in a fresh context of its own (closed by the caller through page.context()). */
async function open(path: string, options: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await e2e.browser.newContext({
    viewport: { width: options.width ?? 390, height: 800 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  await page.goto(e2e.server.url + path);
  if (options.javaScriptEnabled !== false) await page.waitForSelector('html[data-hydrated]');
  return page;
}

const WIDTHS = [320, 390, 768, 1280];
const HEIGHT = 800;
/** The phone on which the page's h1 must show without scrolling. */
const PHONE = 390;

test('every page of the sitemap fits 320, 390, 768 and 1280 px without sideways scroll, and at 390 x 800 its h1 is on the first screen', async () => {
  const sitemap = await (await fetch(`${e2e.server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  // Every translated page of the default site (an untranslated fallback is the original's text, not listed).
  assert.ok(paths.length >= 84, `the sitemap lists the whole default site (${paths.length} pages)`);

  const context = await e2e.browser.newContext({ viewport: { width: WIDTHS[0]!, height: HEIGHT } });
  const page = await context.newPage();
  const overflows: string[] = [];
  const buried: string[] = [];
  for (const path of paths) {
    await page.setViewportSize({ width: WIDTHS[0]!, height: HEIGHT });
    const response = await page.goto(e2e.server.url + path);
    assert.equal(response?.status(), 200, path);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const { scrollWidth, innerWidth, h1Bottom } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        h1Bottom: document.querySelector('h1')!.getBoundingClientRect().bottom + scrollY,
      }));
      if (scrollWidth > innerWidth) overflows.push(`${path} at ${width} px is ${scrollWidth} px wide`);
      if (width === PHONE && h1Bottom > HEIGHT) buried.push(`${path}: h1 ends at ${Math.round(h1Bottom)} px`);
    }
  }
  await context.close();
  assert.deepEqual(
    { overflows, buried },
    { overflows: [], buried: [] },
    `${overflows.length} of ${paths.length * WIDTHS.length} page x width pairs scroll sideways; ` +
      `${buried.length} of ${paths.length} pages put the h1 below the first ${PHONE} x ${HEIGHT} screen`,
  );
});

for (const javaScriptEnabled of [true, false]) {
  test(`on a phone the docs tree and "On this page" are closed disclosures that open; a wide screen shows both beside the text (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
    const page = await open(INSTALL, { javaScriptEnabled });
    const tree = page.locator('.docs-sidebar a[href="/en/docs/routing"]');
    const contents = page.locator('.toc a[href="#check-that-it-works"]');
    const menu = page.locator('summary', { hasText: 'Menu' });
    const onThisPage = page.locator('summary', { hasText: 'On this page' });
    assert.deepEqual([await tree.isVisible(), await contents.isVisible()], [false, false], 'closed at first');
    await menu.click();
    await onThisPage.click();
    assert.deepEqual([await tree.isVisible(), await contents.isVisible()], [true, true], 'open once their summaries are pressed');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    assert.deepEqual([await tree.isVisible(), await contents.isVisible()], [true, true], 'shown without a press on a wide screen');
    assert.deepEqual([await menu.isVisible(), await onThisPage.isVisible()], [false, false], 'and nothing to press');
    const [sidebar, article] = [await page.locator('.docs-menu').boundingBox(), await page.locator('.docs-article h1').boundingBox()];
    assert.ok(sidebar && article && sidebar.x + sidebar.width <= article.x, 'the tree is a column beside the text');
    await page.context().close();
  });
}

test('a page picked from the phone menu opens with the menu closed, its h1 on screen', async () => {
  const page = await open(INSTALL);
  await markWindow(page);
  await page.locator('summary', { hasText: 'Menu' }).click();
  await page.click('.docs-sidebar a[href="/en/docs/routing"]');
  await page.waitForURL(/\/en\/docs\/routing$/);
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  assert.equal(await page.locator('.docs-sidebar a[href="/en/docs/content"]').isVisible(), false, 'the menu is closed again');
  const h1 = await page.locator('h1').boundingBox();
  assert.ok(h1 && h1.y + h1.height <= 800, 'the h1 is on the first screen');
  assert.ok(await hasMarker(page), 'a client navigation, not a document load');
  await page.context().close();
});

test('a link of "On this page" lands on its heading, and every heading links to itself', async () => {
  const page = await open(INSTALL, { width: 1280 });
  await page.click('.toc a[href="#check-that-it-works"]');
  await page.waitForURL(/#check-that-it-works$/);
  const top = await page.evaluate(() => document.getElementById('check-that-it-works')!.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 100, `the heading is at the top of the screen (${top} px)`);
  const anchor = page.getByRole('link', { name: 'Link to this section: Run the tests' });
  assert.equal(await anchor.getAttribute('href'), '#run-the-tests');
  assert.equal(await page.locator('h2#run-the-tests').textContent(), 'Run the tests', 'the anchor is not part of the heading');
  await page.context().close();
});

test('a code block wider than a phone scrolls in its own box, by keyboard', async () => {
  const page = await open(INSTALL);
  const name = await page.evaluate(() => {
    const box = [...document.querySelectorAll<HTMLElement>('.code-box')].find((element) => element.scrollWidth > element.clientWidth);
    return box?.getAttribute('aria-label') ?? null;
  });
  assert.ok(name?.startsWith('Code example '), `a code box overflows at 390 px, named "${name}"`);
  const region = page.getByRole('region', { name: name!, exact: true });
  await region.focus();
  assert.equal(await region.evaluate((element) => element === document.activeElement), true, 'it takes focus');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  // Keyboard scrolling is animated: wait for the box to move (Playwright's timeout fails the test if it never does).
  await page.waitForFunction((label) => document.querySelector(`[aria-label="${label}"]`)!.scrollLeft > 0, name);
  assert.equal(await page.evaluate(() => document.documentElement.scrollLeft), 0, 'the page itself does not move');
  await page.context().close();
});

test('the skip link is the first stop of the keyboard, shows when focused, and moves on to the page', async () => {
  const page = await open(INSTALL);
  const skip = page.locator('.skip-link');
  assert.ok(((await skip.boundingBox())?.y ?? 0) < 0, 'off screen until focused');
  await page.keyboard.press('Tab');
  assert.equal(await skip.evaluate((element) => element === document.activeElement), true);
  const box = await skip.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 800, 'on screen when focused');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#main$/);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.closest('main') !== null), true, 'the next stop is in the page');
  await page.context().close();
});

test('the progress bar is animated, except for a visitor who asks for reduced motion', async () => {
  const page = await open('/en');
  const animation = () => page.evaluate(() => getComputedStyle(document.getElementById('polysite-progress')!).animationName);
  assert.equal(await animation(), 'progress');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await animation(), 'none');
  await page.context().close();
});

test('printed, a docs page is its text alone: no header, navigation, contents, pager, footer or copy button', async () => {
  const page = await open(INSTALL, { width: 1280 });
  // The copy buttons shown, those of the blocks skipped below the screen marked.
  await page.waitForSelector('[data-skipped] .code-copy:not([hidden])', { state: 'attached' });
  await page.emulateMedia({ media: 'print' });
  const displays = await page.evaluate(() =>
    ['.skip-link', '.site-header', '.docs-menu', '.toc', '.pager', '.site-footer', '.heading-anchor', '.prose'].map(
      (selector) => `${selector}: ${getComputedStyle(document.querySelector(selector)!).display}`,
    ),
  );
  assert.deepEqual(
    await page.evaluate(() => [...new Set([...document.querySelectorAll('.code-copy')].map((button) => getComputedStyle(button).display))]),
    ['none'],
    'no copy button on paper',
  );
  assert.deepEqual(displays, [
    '.skip-link: none',
    '.site-header: none',
    '.docs-menu: none',
    '.toc: none',
    '.pager: none',
    '.site-footer: none',
    '.heading-anchor: none',
    '.prose: block',
  ]);
  await page.context().close();
});
