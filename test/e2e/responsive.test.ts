import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServerAndBrowser } from '../helpers/e2e.ts';

/** Every page of the default site fits every common screen, in every locale. */
const e2e = withServerAndBrowser();

const WIDTHS = [320, 390, 768, 1280];
const HEIGHT = 800;
/** The phone on which the page's h1 must show without scrolling. */
const PHONE = 390;

test('every page of the sitemap fits 320, 390, 768 and 1280 px without sideways scroll, and at 390 x 800 its h1 is on the first screen', async () => {
  const sitemap = await (await fetch(`${e2e.server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  assert.ok(paths.length >= 85, `the sitemap lists the whole default site (${paths.length} pages)`);

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
