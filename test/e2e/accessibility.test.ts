import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { visit } from '../helpers/visit.ts';

let server: RunningServer;
let browser: Browser;
before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const SCREENS = ['', '/docs/guides/install', '/blog', '/blog/streaming-ssr-without-a-framework', '/about', '/nope'];

for (const locale of ['en', 'ar']) {
  test(`axe finds no serious or critical violations on any screen in ${locale}`, async () => {
    const { page, context } = await visit(browser, `${server.url}/${locale}`);
    const found: string[] = [];
    for (const slug of SCREENS) {
      await page.goto(`${server.url}/${locale}${slug}`);
      await page.waitForSelector('html[data-hydrated]');
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          found.push(
            `${locale}${slug}: ${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          );
        }
      }
    }
    assert.deepEqual(found, []);
    await context.close();
  });
}
