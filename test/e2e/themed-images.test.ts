import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serveApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { makeLocales, makePage, realMessages } from '../helpers/content.ts';
import { ROOT } from '../helpers/server.ts';

// Images for one theme (GitHub's `#gh-dark-mode-only` / `#gh-light-mode-only`) in Chromium:
// each shows in its theme only, the system's or the one the reader chose with the switch (the
// switch's own clicks are tested in theme-switch.test.ts; this server has no client bundle).

const png = readFileSync(join(ROOT, 'locales', 'en', 'images', 'request-flow.png'));

let app: Awaited<ReturnType<typeof serveApp>>;
let browser: Browser;
before(async () => {
  const locales = makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/diagram.png': png,
      'pages/docs/themed.md': makePage(
        { title: 'Themed' },
        '![For light](./diagram.png#gh-light-mode-only)\n![For dark](./diagram.png#gh-dark-mode-only)\n\n![For both](./diagram.png)\n',
      ),
    },
  });
  [app, browser] = await Promise.all([serveApp({ LOCALES_DIR: locales, DEFAULT_LOCALE: 'en' }), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  app?.close();
});

/** Which of the page's images show (by alt). */
const shown = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.prose img')]
      .filter((img) => getComputedStyle(img).display !== 'none')
      .map((img) => img.getAttribute('alt')),
  );

test("each image shows in its theme only: the system's, and the reader's choice over it", async () => {
  for (const system of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme: system });
    const page = await context.newPage();
    await page.goto(`${app.url}/en/docs/themed`);
    assert.deepEqual(await shown(page), [system === 'light' ? 'For light' : 'For dark', 'For both'], `system ${system}`);
    // The reader's choice, as the switch stores it: applied by the page's head script before the first paint.
    for (const chosen of ['dark', 'light'] as const) {
      await page.evaluate((theme) => localStorage.setItem('polysite-theme', theme), chosen);
      await page.reload();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), chosen);
      assert.deepEqual(await shown(page), [chosen === 'light' ? 'For light' : 'For dark', 'For both'], `system ${system}, chose ${chosen}`);
    }
    await context.close();
  }
});

test('without JavaScript, the system theme decides', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${app.url}/en/docs/themed`);
  assert.deepEqual(await shown(page), ['For dark', 'For both']);
  await context.close();
});
