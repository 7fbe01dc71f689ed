import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { sharedExport, serveStatic, type ExportRun, type StaticHost } from '../helpers/static-host.ts';
import { hasMarker, markWindow, visit } from '../helpers/visit.ts';

/**
 * The exported default site in Chromium, served by a static file server (sirv,
 * with the export's `_headers`, so under the server's CSP): nothing runs per
 * request, yet navigation, language switching, history, search and the root
 * chooser work, the console stays empty, and no request leaves the static host.
 * The real server runs beside it only to compare search results.
 */
let run: ExportRun;
let host: StaticHost;
let server: RunningServer;
let browser: Browser;

before(async () => {
  run = await sharedExport();
  assert.equal(run.code, 0, run.stderr);
  [host, server, browser] = await Promise.all([serveStatic(run.out), startServer(), launchBrowser()]);
});
after(async () => {
  await Promise.all([browser?.close(), host?.close(), server?.stop()]);
});

/** Every URL a page asks for that is not on the static host (there must be none). */
function elsewhere(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${host.url}/`)) urls.push(request.url());
  });
  return urls;
}

const BOX = 'input[name="q"]';

/** The result links of a search results page, in order. */
const resultLinks = (page: Page) => page.$$eval('.search-results a', (links) => links.map((link) => link.getAttribute('href')));

describe('the exported site on a static host', () => {
  test('load, click through (page data, no document load), switch language, back and forward', async () => {
    const { page, context, problems, dataRequests } = await visit(browser, `${host.url}/en/docs`);
    const away = elsewhere(page);
    await markWindow(page);

    await page.click('.docs-sidebar a[href="/en/docs/routing"]');
    await page.waitForURL(`${host.url}/en/docs/routing`);
    await page.waitForFunction(() => document.title.startsWith('Routing'));
    assert.ok(
      dataRequests.some((path) => /^\/_data\/[^/]+\/en\/docs\/routing\.json$/.test(path)),
      dataRequests.join('\n'),
    );

    // The language switcher: the German page and its messages, both files on the host.
    const assets: string[] = [];
    page.on('request', (request) => assets.push(new URL(request.url()).pathname));
    await page.click('.language-switcher a[data-locale-switch="de"]');
    await page.waitForURL(`${host.url}/de/docs/routing`);
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    assert.ok(
      assets.some((path) => /^\/assets\/messages-de-[0-9A-F]{8}\.json$/.test(path)),
      assets.join('\n'),
    );
    assert.equal(await page.textContent('.site-nav a[href="/de/docs"]'), 'Doku', 'the German messages are in use');
    assert.equal(await page.getAttribute('link[rel="canonical"]', 'href'), 'https://example.test/de/docs/routing');

    await page.goBack();
    await page.waitForURL(`${host.url}/en/docs/routing`);
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.goBack();
    await page.waitForURL(`${host.url}/en/docs`);
    await page.goForward();
    await page.waitForURL(`${host.url}/en/docs/routing`);
    await page.goForward();
    await page.waitForURL(`${host.url}/de/docs/routing`);
    await page.waitForFunction(() => document.documentElement.lang === 'de');

    assert.ok(await hasMarker(page), 'the document was never reloaded');
    assert.deepEqual(problems, []);
    assert.deepEqual(away, []);
    await context.close();
  });

  test("search: the box's results, then the results page made in the browser, the same as the server's", async () => {
    const { page, context, problems } = await visit(browser, `${host.url}/fr/docs`);
    const away = elsewhere(page);
    await markWindow(page);
    await page.focus(BOX);
    await page.keyboard.type('négociation langue');
    await page.waitForSelector('[role="listbox"]:not([hidden]) [role="option"]');
    // The last option: all results, by client navigation.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/fr\/search\?q=n%C3%A9gociation(%20|\+)langue$/);
    await page.waitForSelector('.search-results a');
    assert.ok(await hasMarker(page));
    const served = (await get(server.url, `/fr/search?q=${encodeURIComponent('négociation langue')}`)).body;
    const expected = [...served.matchAll(/<li><a href="([^"]+)" class="search-hit">/g)].map((match) => match[1]);
    assert.ok(expected.length > 0);
    assert.deepEqual(await resultLinks(page), expected);
    assert.match(await page.title(), /négociation langue · polysite$/);
    assert.deepEqual(problems, []);
    assert.deepEqual(away, []);
    await context.close();
  });

  test('search: a full load of /<locale>/search?q= runs the query in the browser', async () => {
    const { page, context, problems } = await visit(browser, `${host.url}/en/search?q=docker`);
    const away = elsewhere(page);
    await page.waitForSelector('.search-results a');
    const served = (await get(server.url, '/en/search?q=docker')).body;
    const expected = [...served.matchAll(/<li><a href="([^"]+)" class="search-hit">/g)].map((match) => match[1]);
    assert.deepEqual(await resultLinks(page), expected);
    assert.equal(await page.inputValue(BOX), 'docker');
    assert.match((await page.textContent('h1')) ?? '', /docker/);
    // Enter in the box is the form's own submit: a document load, answered by the same page.
    await page.fill(BOX, 'heroku');
    await page.press(BOX, 'Enter');
    await page.waitForURL(`${host.url}/en/search?q=heroku`);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('heroku'));
    await page.waitForSelector('.search-results a[href*="heroku"]');
    // The language switcher keeps the query; German is a locale no page of which was seen:
    // its results page is still made here, with German header links, as the server makes it.
    await markWindow(page);
    await page.click('.language-switcher a[hreflang="de"]');
    await page.waitForURL(`${host.url}/de/search?q=heroku`);
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    await page.waitForSelector('.search-results a[href*="heroku"]');
    const servedDe = (await get(server.url, '/de/search?q=heroku')).body;
    assert.deepEqual(
      await resultLinks(page),
      [...servedDe.matchAll(/<li><a href="([^"]+)" class="search-hit">/g)].map((match) => match[1]),
    );
    assert.equal(await page.getAttribute('.site-nav a[href="/de/ueber-uns"]', 'href'), '/de/ueber-uns', 'German header links');
    assert.ok(await hasMarker(page), 'switched without a document load');
    assert.deepEqual(problems, []);
    assert.deepEqual(away, []);
    await context.close();
  });

  test('the root chooser sends a de-CH browser to /de, a chosen language (cookie) first, and anyone else to the default', async () => {
    for (const [locale, cookie, expected] of [
      ['de-CH', null, '/de'],
      ['de-CH', 'fr', '/fr'],
      ['ja', null, '/ja'],
      ['pt-BR', null, '/en'],
    ] as const) {
      const context = await browser.newContext({ locale });
      if (cookie) await context.addCookies([{ name: 'locale', value: cookie, url: host.url }]);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      const away = elsewhere(page);
      await page.goto(`${host.url}/?from=test`);
      await page.waitForURL(`${host.url}${expected}?from=test`);
      await page.waitForSelector('html[data-hydrated]');
      assert.deepEqual(problems, [], `${locale} ${cookie}`);
      assert.deepEqual(away, []);
      await context.close();
    }
  });

  test("a missing page is the locale's not-found page, and the site works from there", async () => {
    const { page, context, problems } = await visit(browser, `${host.url}/ja/nope`);
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    await markWindow(page);
    await page.click('.site-nav a[href="/ja/docs"]');
    await page.waitForURL(`${host.url}/ja/docs`);
    assert.ok(await hasMarker(page));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('with JavaScript off: the chooser is a list of links, and search says it needs JavaScript and links the docs', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-CH' });
    const page = await context.newPage();
    await page.goto(`${host.url}/`);
    assert.equal(page.url(), `${host.url}/`);
    await page.click('a[hreflang="ar"]');
    await page.waitForURL(`${host.url}/ar`);
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    await page.goto(`${host.url}/de/docs`);
    await page.fill(BOX, 'routing');
    await page.press(BOX, 'Enter');
    await page.waitForURL(`${host.url}/de/search?q=routing`);
    assert.match(await page.innerText('main'), /Die Suche braucht auf dieser Website JavaScript/);
    await page.click('main a[href="/de/docs"]');
    await page.waitForURL(`${host.url}/de/docs`);
    await context.close();
  });
});
