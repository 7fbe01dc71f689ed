import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { visit } from '../helpers/visit.ts';

const e2e = withServerAndBrowser();

const SCREENS = ['', '/docs/guides/install', '/blog', '/blog/streaming-ssr-without-a-framework', '/about', '/nope'];

for (const locale of ['en', 'ar']) {
  test(`axe finds no serious or critical violations on any screen in ${locale}`, async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/${locale}`);
    const found: string[] = [];
    for (const slug of SCREENS) {
      await page.goto(`${e2e.server.url}/${locale}${slug}`);
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
