import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { visit } from '../helpers/visit.ts';

const e2e = withServerAndBrowser();

const SCREENS = ['', '/docs/guides/install', '/blog', '/blog/streaming-ssr-without-a-framework', '/about', '/nope'];
/** The dark scheme changes colours only: the screens with every kind of text (links, code, tables, the disclosures). */
const DARK_SCREENS = ['', '/docs/guides/install', '/blog/streaming-ssr-without-a-framework'];
const DOCS = '/docs/guides/install';

async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${where}: ${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

for (const locale of ['en', 'ar']) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`axe finds no serious or critical violations in ${locale}, ${colorScheme} colour scheme, wide and on a phone with the docs disclosures open`, async () => {
      const { page, context } = await visit(e2e.browser, `${e2e.server.url}/${locale}`);
      await page.emulateMedia({ colorScheme });
      const found: string[] = [];
      for (const slug of colorScheme === 'light' ? SCREENS : DARK_SCREENS) {
        await page.goto(`${e2e.server.url}/${locale}${slug}`);
        await page.waitForSelector('html[data-hydrated]');
        found.push(...(await seriousViolations(page, `${locale}${slug}`)));
      }
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${e2e.server.url}/${locale}${DOCS}`);
      await page.waitForSelector('html[data-hydrated]');
      await page.click('.docs-menu > summary');
      await page.click('.toc > summary');
      found.push(...(await seriousViolations(page, `${locale}${DOCS} at 390 px`)));
      assert.deepEqual(found, []);
      await context.close();
    });
  }
}
