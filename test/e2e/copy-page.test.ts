import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { ROOT } from '../helpers/server.ts';

// "Copy page as Markdown" in Chromium: hidden until its script (a chunk of its own, fetched
// after the page is interactive) shows it, then the page's Markdown twin on the clipboard.

const e2e = withServerAndBrowser();
const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));

for (const [path, locale] of [
  ['/en/docs/guides/install', 'en'],
  ['/ar/docs', 'ar'],
] as const) {
  test(`${path}: the button copies the page's Markdown twin, and says so`, async () => {
    const context = await e2e.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(e2e.server.url + path);
    const modulepreloads = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel=modulepreload]')].map((link) => link.getAttribute('href')),
    );
    await page.waitForSelector('html[data-hydrated]');
    const button = page.getByRole('button', { name: messages(locale)['page.copyMarkdown'] });
    await button.waitFor({ state: 'visible' });
    // Its code came after the first load: a script the document neither loads nor preloads.
    const chunk = scripts.find((script) => !modulepreloads.includes(script) && script !== scripts[0]);
    assert.ok(chunk, `a lazy chunk was fetched (${scripts.join(', ')})`);

    await button.click();
    await page.waitForFunction(
      (copied) => [...document.querySelectorAll('[role=status]')].some((region) => region.textContent === copied),
      messages(locale)['page.copiedMarkdown'],
    );
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const twinPath = path === '/ar/docs' ? '/ar/docs.md' : `${path}.md`;
    const twin = await (await fetch(e2e.server.url + twinPath)).text();
    assert.equal(copied, twin);
    assert.match(copied, /^---\ntitle: /);
    await context.close();
  });
}

test('without JavaScript the button is not shown (it could not copy), and takes its room so nothing moves', async () => {
  const context = await e2e.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${e2e.server.url}/en/docs/guides/install`);
  const state = await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('.copy-page')!;
    return { hidden: button.hidden, visibility: getComputedStyle(button).visibility, height: button.getBoundingClientRect().height };
  });
  assert.equal(state.hidden, true);
  assert.equal(state.visibility, 'hidden');
  assert.ok(state.height > 0, 'its room is kept');
  await context.close();
});
