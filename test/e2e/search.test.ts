import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { ROOT, startServer } from '../helpers/server.ts';
import { hasMarker, markWindow, visit } from '../helpers/visit.ts';

const e2e = withServerAndBrowser();

const BOX = 'input[name="q"]';
const OPTIONS = '[role="listbox"]:not([hidden]) [role="option"]';

const message = (locale: string, key: string): string =>
  JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'))[key];

/** Every request the page makes, as paths with their query. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    seen.push(url.pathname + url.search);
  });
  return seen;
}

/** Types into the box, waits for the list, picks option `index` (0-based) with the arrow keys and Enter. */
async function chooseWithKeyboard(page: Page, query: string, index: number): Promise<string> {
  await page.focus(BOX);
  await page.keyboard.type(query);
  await page.waitForSelector(OPTIONS);
  for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
  const active = await page.getAttribute(BOX, 'aria-activedescendant');
  assert.ok(active, 'the box names the active option');
  assert.equal(await page.getAttribute(`[id="${active}"]`, 'aria-selected'), 'true');
  const href = (await page.getAttribute(`[id="${active}"]`, 'href'))!;
  await page.keyboard.press('Enter');
  return href;
}

/** After a navigation to `href`: the URL is it, and the heading its #hash names is on screen. */
async function landedOn(page: Page, href: string) {
  await page.waitForURL((url) => url.pathname + url.hash === href);
  const hash = new URL(href, 'http://x').hash;
  assert.ok(hash, `${href} goes to a heading`);
  const top = await page.evaluate(
    (id) => document.getElementById(id)?.getBoundingClientRect().top ?? null,
    decodeURIComponent(hash.slice(1)),
  );
  assert.notEqual(top, null, 'the heading exists');
  assert.ok(top! >= -2 && top! < 200, `the heading is at the top of the screen (${top})`);
}

describe('as you type', () => {
  test('en: results under the box, the search code and index fetched once on first focus, keyboard choice is a client navigation to the heading', async () => {
    const { page, context, problems, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/en/docs`);
    const requests = recordRequests(page);
    await markWindow(page);
    assert.equal(await page.getAttribute(BOX, 'role'), 'combobox');
    assert.equal(await page.getAttribute(BOX, 'aria-expanded'), 'false');

    await page.focus(BOX);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/assets/search-en-')));
    await page.keyboard.type('canonical red');
    await page.waitForSelector(OPTIONS);
    assert.equal(await page.getAttribute(BOX, 'aria-expanded'), 'true');
    assert.match((await page.textContent(`${OPTIONS} mark`)) ?? '', /canonical|red/i);
    // The count is announced in the live region, in the page's language.
    const total = await page.evaluate(() => document.querySelector('[role="status"]')?.textContent ?? '');
    assert.match(total, /\d+ pages? found/);
    await page.keyboard.press('Backspace');
    await page.keyboard.type('d');
    await page.waitForSelector(OPTIONS);
    assert.equal(requests.filter((path) => path.startsWith('/assets/search-en-')).length, 1, 'the index is fetched once');
    assert.ok(!requests.some((path) => path.includes('search.json')), 'no server search when the index is in the browser');
    assert.ok(await hasMarker(page), 'typing never left the page');

    const href = await chooseWithKeyboard(page, '', 0);
    await landedOn(page, href);
    assert.ok(await hasMarker(page), 'choosing a result is a client navigation');
    assert.ok(
      dataRequests.some((request) => request.includes(`${href.split('#')[0]}.json`)),
      'its page data was fetched',
    );
    assert.equal(await page.getAttribute(BOX, 'aria-expanded'), 'false');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the search code is not part of the first load', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    const before = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    await page.focus(BOX);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/assets/search-en-')));
    const after = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    const loaded = after.filter((name) => !before.includes(name));
    assert.ok(
      loaded.some((name) => /\/assets\/chunk-[A-Z0-9]+\.js$/.test(name)),
      `a code chunk arrives on focus: ${loaded.join(', ')}`,
    );
    await context.close();
  });

  test('Escape closes the list, a second Escape clears the box; arrows wrap around', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.focus(BOX);
    await page.keyboard.type('docker');
    await page.waitForSelector(OPTIONS);
    const count = await page.locator(OPTIONS).count();
    await page.keyboard.press('ArrowUp');
    assert.equal(
      await page.getAttribute(BOX, 'aria-activedescendant'),
      await page
        .locator(OPTIONS)
        .nth(count - 1)
        .getAttribute('id'),
    );
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getAttribute(BOX, 'aria-activedescendant'), await page.locator(OPTIONS).nth(0).getAttribute('id'));
    await page.keyboard.press('Escape');
    assert.equal(await page.getAttribute(BOX, 'aria-expanded'), 'false');
    assert.equal(await page.inputValue(BOX), 'docker');
    await page.keyboard.press('Escape');
    assert.equal(await page.inputValue(BOX), '');
    await context.close();
  });

  test('ja: a Japanese word finds its pages; the choice lands on the heading', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/ja`, { locale: 'ja-JP' });
    await markWindow(page);
    const href = await chooseWithKeyboard(page, 'リポジトリ', 0);
    assert.match(href, /^\/ja\//);
    await landedOn(page, href);
    assert.ok(await hasMarker(page));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('fr: "compresser" finds the pages that say compresse, compressé and compression, with the stemmer of French only', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/fr`, { locale: 'fr-FR' });
    const requests = recordRequests(page);
    await page.focus(BOX);
    await page.keyboard.type('compresser');
    await page.waitForSelector(OPTIONS);
    const marked = (await page.locator(`${OPTIONS} mark`).allTextContents()).map((text) => text.toLowerCase());
    for (const word of ['compression', 'compressé']) assert.ok(marked.includes(word), `${word} marked in ${marked.join(', ')}`);
    const scripts = requests.filter((path) => path.startsWith('/assets/chunk-'));
    assert.ok(scripts.length <= 3, `the search code, the French stemmer and what they share: ${scripts.join(' ')}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('ar: Arabic without vowel marks finds its pages, right to left; the choice lands on the heading', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/ar`, { locale: 'ar' });
    await markWindow(page);
    await page.focus(BOX);
    await page.keyboard.type('الخادم');
    await page.waitForSelector(OPTIONS);
    const announced = await page.textContent('[role="status"]');
    assert.ok(announced && /عُثر/.test(announced), `the count is announced in Arabic: ${announced}`);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('[role="listbox"]')!).direction), 'rtl');
    await page.fill(BOX, '');
    const hits = await page.locator(OPTIONS).count();
    assert.equal(hits, 0, 'an emptied box closes the list');
    const href = await chooseWithKeyboard(page, 'الخادم', 2);
    await landedOn(page, href);
    assert.ok(await hasMarker(page));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the last option leads to the full results page, by client navigation made from the first page’s head, no page data fetched; back returns', async () => {
    const { page, context, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/de/docs`);
    await markWindow(page);
    await page.focus(BOX);
    await page.keyboard.type('Uberblick');
    await page.waitForSelector(OPTIONS);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${e2e.server.url}/de/search?q=Uberblick`);
    await page.waitForSelector('.search-results');
    assert.match((await page.textContent('.search-results mark')) ?? '', /Überblick/);
    assert.equal(await page.inputValue(BOX), 'Uberblick');
    assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
    // The header and the feed link came from the first page, read back from its document.
    assert.match((await page.getAttribute('link[type="application/atom+xml"]', 'href')) ?? '', /\/de\/blog\/feed\.xml$/);
    assert.deepEqual(dataRequests, [], 'no page data was fetched');
    assert.ok(await hasMarker(page));
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/de/docs`);
    await page.goForward();
    await page.waitForURL(`${e2e.server.url}/de/search?q=Uberblick`);
    await page.waitForSelector('.search-results');
    assert.ok(await hasMarker(page));
    await context.close();
  });

  test('axe finds no serious or critical violations with the list open, nor on the results page', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/ar/search?q=Sentry`);
    await page.focus(BOX);
    await page.fill(BOX, 'Docker');
    await page.waitForSelector(OPTIONS);
    await page.keyboard.press('ArrowDown');
    const results = await new AxeBuilder({ page }).analyze();
    const found = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    assert.deepEqual(found, []);
    await context.close();
  });
});

describe('on a site whose index is too large to download', () => {
  test('typing asks the server for JSON and never fetches the index', async () => {
    const server = await startServer({ SEARCH_INDEX_MAX_KB: '0' });
    try {
      const { page, context, problems } = await visit(e2e.browser, `${server.url}/en/docs`);
      const requests = recordRequests(page);
      await markWindow(page);
      const href = await chooseWithKeyboard(page, 'heroku steps', 0);
      await landedOn(page, href);
      assert.ok(
        requests.some((path) => /^\/_data\/[^/]+\/en\/search\.json\?q=heroku(%20|\+)steps$/.test(path)),
        requests.join('\n'),
      );
      assert.ok(!requests.some((path) => path.startsWith('/assets/search-')), 'the index is never downloaded');
      assert.ok(await hasMarker(page));
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});

describe('with JavaScript off', () => {
  test('the box is a form: Enter shows the results page, and a result leads to the heading', async () => {
    const context = await e2e.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${e2e.server.url}/fr/docs`);
    await page.fill(BOX, 'negociation');
    await page.press(BOX, 'Enter');
    await page.waitForURL(`${e2e.server.url}/fr/search?q=negociation`);
    assert.match((await page.textContent('h1')) ?? '', /negociation/);
    assert.match((await page.textContent('.search-results mark')) ?? '', /négociation/);
    const href = (await page.getAttribute('.search-results a', 'href'))!;
    await page.click('.search-results a');
    await landedOn(page, href);
    await page.goto(`${e2e.server.url}/fr/search?q=zzqxv`);
    assert.match((await page.textContent('main')) ?? '', new RegExp(message('fr', 'search.noMatch').split('{')[0]!));
    await context.close();
  });
});

describe('docs versions', () => {
  for (const [locale, word] of [
    ['ja', 'ルーティング'],
    ['ar', 'التوجيه'],
  ] as const) {
    test(`${locale}: on an older version's page the box downloads that version's index and finds its pages only; on the latest, the latest's`, async () => {
      const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/${locale}/docs/0.1/routing`, { locale });
      const requests = recordRequests(page);
      await page.focus(BOX);
      await page.keyboard.type(word);
      await page.waitForSelector(OPTIONS);
      const old = await page.$$eval(OPTIONS, (options) => options.map((option) => option.getAttribute('href') ?? ''));
      const pages = old.filter((href) => !href.includes('/search?'));
      assert.ok(pages.length > 0, 'results');
      assert.ok(
        pages.every((href) => /^\/[a-z]+\/docs\/0\.1([/#]|$)/.test(href) && href.startsWith(`/${locale}/`)),
        pages.join(' '),
      );
      assert.ok(
        old.some((href) => href.includes('&v=0.1')),
        'the link to every result keeps the version',
      );
      assert.deepEqual(
        requests.filter((path) => path.startsWith('/assets/search-')).map((path) => path.replace(/-[A-Z0-9]+\.json$/, '')),
        [`/assets/search-${locale}-v0.1`],
      );

      await page.goto(`${e2e.server.url}/${locale}/docs/routing`);
      await page.waitForSelector('html[data-hydrated]');
      await page.focus(BOX);
      await page.keyboard.type(word);
      await page.waitForSelector(OPTIONS);
      const latest = await page.$$eval(OPTIONS, (options) => options.map((option) => option.getAttribute('href') ?? ''));
      assert.ok(latest.some((href) => href.startsWith(`/${locale}/docs/routing`)));
      assert.ok(!latest.some((href) => href.includes('/docs/0.1/')), latest.join(' '));
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test("ja: after a client navigation to an older version, the box downloads that version's index (the document named only the latest's)", async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/ja/docs/routing`, { locale: 'ja' });
    const requests = recordRequests(page);
    await markWindow(page);
    await page.locator('[data-version-switch] a[data-version="0.1"]').click();
    await page.waitForURL(/\/ja\/docs\/0\.1\/routing$/);
    assert.ok(await hasMarker(page), 'a client navigation');
    await page.focus(BOX);
    await page.keyboard.type('ルーティング');
    await page.waitForSelector(OPTIONS);
    const hrefs = await page.$$eval(OPTIONS, (options) => options.map((option) => option.getAttribute('href') ?? ''));
    const pages = hrefs.filter((href) => !href.includes('/search?'));
    assert.ok(pages.length > 0 && pages.every((href) => href.startsWith('/ja/docs/0.1')), pages.join(' '));
    assert.deepEqual(
      requests.filter((path) => path.startsWith('/assets/search-')).map((path) => path.replace(/-[A-Z0-9]+\.json$/, '')),
      ['/assets/search-ja-v0.1'],
    );
    assert.deepEqual(problems, []);
    await context.close();
  });
});
