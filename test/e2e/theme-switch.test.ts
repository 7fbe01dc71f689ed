import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { ROOT } from '../helpers/server.ts';
import { visit } from '../helpers/visit.ts';

// The reader's theme in Chromium: chosen with the header's radio group, remembered
// across loads, in place before the first paint (no flash of the other theme), under
// the site's CSP with no violation (it allows no inline script: the theme is applied by the
// head's blocking script, a file of its own).

const e2e = withServerAndBrowser();
const DOCS = '/en/docs/guides/install';
const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(13, 17, 23)';

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const checked = (page: Page) => page.evaluate(() => document.querySelector<HTMLInputElement>('.theme-switch :checked')?.value);

/** Records CSP violations, and the theme <html> had when the parser first reached <body> (before anything could be painted). */
async function watch(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen = { violations: [] as string[], themeAtBody: 'none' };
    (window as unknown as { seen: typeof seen }).seen = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.violations.push(`${event.violatedDirective}: ${event.blockedURI}`),
    );
    const observer = new MutationObserver(() => {
      if (!document.body) return;
      seen.themeAtBody = document.documentElement.dataset.theme ?? 'unset';
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}
const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: { violations: string[]; themeAtBody: string } }).seen);

test("the chosen theme is remembered and applied before the first paint, by the head's script alone", async () => {
  const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}${DOCS}`);
  await watch(context);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await background(page), LIGHT_BG);
  assert.equal(await checked(page), 'auto');

  await page.click('.theme-switch label:has(input[value="dark"])');
  assert.equal(await background(page), DARK_BG, 'applied at once');
  assert.equal(await checked(page), 'dark');

  // A new load with every script but the head's refused: only the head's can set it.
  const head = await page.evaluate(() => document.head.querySelector<HTMLScriptElement>('script[src]')!.src);
  assert.match(head, /\/assets\/head-[0-9A-F]+\.js$/);
  const refused = problems.length;
  const others = (url: URL) => url.pathname.endsWith('.js') && url.href !== head;
  let aborted = 0;
  await page.route(others, (route) => {
    aborted++;
    return route.abort();
  });
  await page.reload();
  assert.equal((await seen(page)).themeAtBody, 'dark', 'set before the body was parsed');
  assert.equal(await background(page), DARK_BG);
  await page.unroute(others);
  // The refused scripts' own load errors, each in the console on its own time: all of them, then set aside.
  for (let waited = 0; problems.length - refused < aborted && waited < 5000; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  problems.splice(refused);

  await page.reload();
  await page.waitForSelector('html[data-hydrated]');
  assert.equal(await checked(page), 'dark', 'the switch shows the stored choice after hydration');
  assert.equal(await background(page), DARK_BG);
  assert.deepEqual((await seen(page)).violations, [], 'no CSP violation');

  // Light chosen on a dark system, then the system's own again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.click('.theme-switch label:has(input[value="light"])');
  await page.reload();
  await page.waitForSelector('html[data-hydrated]');
  assert.equal(await background(page), LIGHT_BG);
  await page.click('.theme-switch label:has(input[value="auto"])');
  assert.equal(await background(page), DARK_BG);
  await page.reload();
  await page.waitForSelector('html[data-hydrated]');
  assert.equal(await checked(page), 'auto');
  assert.equal(await background(page), DARK_BG);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the switch is a labelled radio group in every locale, usable from the keyboard', async () => {
  for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
    const messages = JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/${locale}`);
    const group = page.getByRole('group', { name: messages['theme.label'] });
    assert.equal(await group.getByRole('radio').count(), 3, locale);
    await group.getByRole('radio', { name: messages['theme.dark'] }).focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await checked(page), 'auto', `${locale}: arrow keys move the choice`);
    await context.close();
  }
});

for (const locale of ['en', 'ar']) {
  test(`axe finds no serious violations with either theme chosen against the system's (${locale})`, async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/${locale}/docs/guides/install`);
    const found: string[] = [];
    for (const [system, chosen] of [
      ['light', 'dark'],
      ['dark', 'light'],
    ] as const) {
      await page.emulateMedia({ colorScheme: system });
      await page.click(`.theme-switch label:has(input[value="${chosen}"])`);
      const results = await new AxeBuilder({ page }).analyze();
      found.push(
        ...results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${chosen}: ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      );
    }
    assert.deepEqual(found, []);
    await context.close();
  });
}
