import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { makeLocales, makePage } from '../helpers/content.ts';
import { ROOT } from '../helpers/server.ts';
import { visit } from '../helpers/visit.ts';

const BODY = `Intro.

\`\`\`ts {2} title="src/app.ts" showLineNumbers
import { start } from 'polysite';
const port: number = 3000; // [!code ++]
const port: number = 80; // [!code --]
start({ port, name: "docs" });
\`\`\`

:::tabs key=pkg
== npm
\`\`\`sh
npm install polysite
\`\`\`
== pnpm
\`\`\`sh
pnpm add polysite
\`\`\`
== yarn
\`\`\`sh
yarn add polysite
\`\`\`
:::

Between.

:::code-group key=pkg
\`\`\`sh title="npm"
npm run build
\`\`\`

\`\`\`sh title="pnpm"
pnpm run build
\`\`\`
:::
`;

/** A long page: a screen of text, then code blocks far below, in a list, alone, and in a tab set. */
const LONG_BODY = [
  ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of the text above the code, long enough to take a few lines on a phone.`),
  '1. A step with its command:\n\n   ```sh\n   npm install polysite\n   ```',
  BODY,
  ...Array.from({ length: 10 }, (_, i) => `Paragraph ${i + 31} below the code.`),
  '```sh\nnpm start\n```',
].join('\n\n');

const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));
const dir = makeLocales({
  en: {
    'messages.json': messages('en'),
    'pages/index.md': makePage({ title: 'Home' }, BODY),
    'pages/long.md': makePage({ title: 'Long' }, LONG_BODY),
  },
  ar: { 'messages.json': messages('ar'), 'pages/index.md': makePage({ title: 'الرئيسية' }, `مقدمة بالعربية.\n\n${BODY}`) },
});
const e2e = withServerAndBrowser({ LOCALES_DIR: dir, DEFAULT_LOCALE: 'en' });

const selected = (page: import('playwright-core').Page, set: number) =>
  page.locator('.tabs').nth(set).locator('[role="tab"][aria-selected="true"]').textContent();

test('the copy button, a target of at least 24 px, copies the code without removed lines, by keyboard, and announces it in the page language', async () => {
  const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/ar`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
  const button = page.locator('.code-copy').first();
  await button.waitFor({ state: 'visible' });
  assert.equal(await button.textContent(), messages('ar')['content.copyCode']);
  // WCAG 2.2's smallest target without room around it (2.5.8).
  const box = (await button.boundingBox())!;
  assert.ok(box.width >= 24 && box.height >= 24, `the button is ${box.width} x ${box.height} px`);
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('code-announcer')?.textContent);
  assert.equal(await page.locator('#code-announcer').textContent(), messages('ar')['content.codeCopied']);
  assert.equal(
    await page.evaluate(() => navigator.clipboard.readText()),
    'import { start } from \'polysite\';\nconst port: number = 3000;\nstart({ port, name: "docs" });',
  );
  assert.equal(await page.locator('pre.code').first().getAttribute('dir'), 'ltr');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone, the buttons of a block skipped below the screen are hidden until it comes near: axe finds no target lying over another', async () => {
  const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en/long`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('.tab-list', { state: 'attached' });
  // Each button shows exactly when its block is laid out; waits for the browser's state change to reach the page.
  const mismatched = () =>
    page.waitForFunction(() =>
      [...document.querySelectorAll('.code-copy, .tab-list')]
        // Not those of a tab panel not chosen: they show with their panel.
        .filter((button) => button.checkVisibility())
        .every((button) => button.checkVisibility({ contentVisibilityAuto: true }) === (getComputedStyle(button).visibility === 'visible')),
    );
  const skipped = () =>
    page.evaluate(
      () =>
        [...document.querySelectorAll('.code-copy')].filter((button) => !button.checkVisibility({ contentVisibilityAuto: true })).length,
    );
  await mismatched();
  assert.ok((await skipped()) >= 4, `the code blocks wait below the screen: ${await skipped()} skipped`);
  // On paper every block is laid out, and every tab list names its panels, skipped on screen or not.
  assert.equal(await page.locator('[data-skipped] .tab-list').count(), 2, 'the tab sets wait below the screen');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(
    await page.evaluate(() => [...document.querySelectorAll('.tab-list')].map((list) => getComputedStyle(list).visibility)),
    ['visible', 'visible'],
  );
  await page.emulateMedia({ media: 'screen' });
  await mismatched();
  const axe = await new AxeBuilder({ page }).withRules(['target-size']).analyze();
  assert.deepEqual(
    axe.violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(' '))),
    [],
  );
  // Scrolled through as a reader would: each block's buttons show as it comes near.
  for (let at = 0; at < (await page.evaluate(() => document.documentElement.scrollHeight)); at += 500) {
    await page.evaluate((y) => scrollTo(0, y), at);
    await mismatched();
  }
  assert.ok(await page.locator('.code-copy').last().isVisible(), 'the last copy button shows at the end of the page');
  assert.deepEqual(problems, []);
  await context.close();
});

test('tabs are an ARIA tab list: arrows, Home and End; a choice follows its key to the other sets and is remembered', async () => {
  const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en`);
  await page.locator('.tabs[data-enhanced]').nth(1).waitFor();
  assert.equal(await selected(page, 0), 'npm');
  assert.equal(await page.locator('.tabs').first().locator('[role="tabpanel"]:visible').count(), 1);
  await page.locator('.tabs').first().locator('[role="tab"]').first().focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await selected(page, 0), 'pnpm');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'pnpm');
  assert.equal(await selected(page, 1), 'pnpm');
  assert.ok(await page.locator('.tabs').first().getByText('pnpm add polysite').isVisible());
  assert.ok(!(await page.locator('.tabs').first().getByText('npm install polysite').isVisible()));
  await page.keyboard.press('End');
  assert.equal(await selected(page, 0), 'yarn');
  assert.equal(await selected(page, 1), 'pnpm'); // the code group has no yarn tab
  await page.keyboard.press('Home');
  assert.equal(await selected(page, 0), 'npm');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selected(page, 0), 'yarn');
  await page.locator('.tabs').nth(1).getByRole('tab', { name: 'pnpm' }).click();
  await page.reload();
  await page.locator('.tabs[data-enhanced]').nth(1).waitFor();
  assert.equal(await selected(page, 0), 'pnpm');
  assert.equal(await selected(page, 1), 'pnpm');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without JavaScript every panel is shown under its label and no copy button is', async () => {
  const context = await e2e.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${e2e.server.url}/en`);
  assert.deepEqual(await page.locator('.tab-label').allTextContents(), ['npm', 'pnpm', 'yarn', 'npm', 'pnpm']);
  for (const command of ['npm install polysite', 'pnpm add polysite', 'yarn add polysite', 'pnpm run build'])
    assert.ok(await page.getByText(command).isVisible(), command);
  assert.equal(await page.locator('.code-copy:visible').count(), 0);
  await context.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`highlighted code has its ${colorScheme} colours, with enough contrast for axe, and no CSP violation`, async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.emulateMedia({ colorScheme });
    const keyword = await page
      .locator('.tk-keyword')
      .first()
      .evaluate((element) => getComputedStyle(element).color);
    assert.equal(keyword, colorScheme === 'light' ? 'rgb(207, 34, 46)' : 'rgb(255, 123, 114)');
    const results = await new AxeBuilder({ page })
      .include('.prose')
      .withRules(['color-contrast', 'aria-required-children', 'aria-valid-attr-value'])
      .analyze();
    assert.deepEqual(
      results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      [],
    );
    assert.deepEqual(problems, []);
    await context.close();
  });
}
