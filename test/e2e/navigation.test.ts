import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { appendLink, hasMarker, markWindow, visit } from '../helpers/visit.ts';

const APP_ERROR = 'Application error: a client-side exception has occurred';

const e2e = withServerAndBrowser();

// Every screen type, the docs index, and a page that is untranslated in ja (served from en with a notice).
const SCREENS = ['', '/docs', '/docs/guides/install', '/docs/deploy/docker', '/blog', '/blog/introducing-polysite', '/about', '/nope'];

describe('hydration leaves the console empty', () => {
  for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
    test(`every screen type in ${locale}`, async () => {
      const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/${locale}`);
      for (const slug of SCREENS.slice(1)) {
        await page.goto(`${e2e.server.url}/${locale}${slug}`);
        await page.waitForSelector('html[data-hydrated]');
      }
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});

describe('client navigation', () => {
  test('home -> docs -> nested docs -> blog post without a reload, then back and forward', async () => {
    const { page, context, dataRequests, problems } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);

    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    // The sidebar opens a section on the way to a page: guides first, then its install page.
    await page.click('.docs-sidebar a[href="/en/docs/guides"]');
    await page.waitForURL(`${e2e.server.url}/en/docs/guides`);
    await page.click('.docs-sidebar a[href="/en/docs/guides/install"]');
    await page.waitForURL(`${e2e.server.url}/en/docs/guides/install`);
    await page.waitForFunction(() => document.title.startsWith('Install'));
    assert.equal(await page.getAttribute('link[rel="canonical"]', 'href'), 'https://example.test/en/docs/guides/install');

    // Scroll down, then follow a link inside the Markdown content.
    await page.evaluate(() => scrollTo(0, 600));
    const scrolled = await page.evaluate(() => scrollY);
    assert.ok(scrolled > 0, 'the install page is long enough to scroll');
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('.prose a[href="/en/docs/configuration"]')!.click());
    await page.waitForURL(`${e2e.server.url}/en/docs/configuration`);
    assert.equal(await page.evaluate(() => scrollY), 0, 'a new page starts at the top');

    await page.click('.site-nav a[href="/en/blog"]');
    await page.waitForURL(`${e2e.server.url}/en/blog`);
    await page.click('.post-list a[href="/en/blog/introducing-polysite"]');
    await page.waitForURL(`${e2e.server.url}/en/blog/introducing-polysite`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match(await page.title(), /polysite/);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', 'focus moves to the heading');
    assert.match((await page.textContent('#polysite-announcer')) ?? '', /polysite/);

    assert.ok(await hasMarker(page), 'the document was never reloaded');
    for (const path of ['/en/docs', '/en/docs/guides/install', '/en/docs/configuration', '/en/blog', '/en/blog/introducing-polysite']) {
      assert.ok(
        dataRequests.some((request) => request.endsWith(`${path}.json`)),
        `a JSON request was made for ${path}`,
      );
    }

    await page.goBack(); // blog index
    await page.goBack(); // configuration
    await page.goBack(); // install, scrolled
    await page.waitForURL(`${e2e.server.url}/en/docs/guides/install`);
    await page.waitForFunction((y) => Math.abs(scrollY - y) < 2, scrolled);
    assert.match(await page.locator('h1').innerText(), /Install/);
    await page.goForward();
    await page.waitForURL(`${e2e.server.url}/en/docs/configuration`);
    assert.ok(await hasMarker(page));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a prefetched page is not fetched again on click', async () => {
    const { page, context, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.hover('.site-nav a[href="/en/about"]');
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/en/about.json')));
    await page.click('.site-nav a[href="/en/about"]');
    await page.waitForURL(`${e2e.server.url}/en/about`);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent !== '');
    assert.equal(dataRequests.filter((request) => request.includes('/en/about.json')).length, 1);
    await context.close();
  });

  test("a full load fetches its locale's messages once, by its preload; navigating in that locale fetches none", async () => {
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('request', (request) => request.url().includes('/assets/messages-') && messages.push(new URL(request.url()).pathname));
    const warnings: string[] = [];
    page.on('console', (message) => message.type() !== 'log' && warnings.push(message.text()));
    await page.goto(`${e2e.server.url}/fr/docs`);
    await page.waitForSelector('html[data-hydrated]');
    await page.click('.site-nav a[href="/fr/blog"]');
    await page.waitForURL(`${e2e.server.url}/fr/blog`);
    await page.waitForFunction(() => document.title.startsWith('Blog'));
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /^\/assets\/messages-fr-[0-9A-F]{8}\.json$/);
    assert.equal(await page.getAttribute('link[rel="preload"][as="fetch"]', 'href'), messages[0]);
    // Chromium warns when a preload goes unused, or is fetched again for a request that does not match it.
    assert.deepEqual(warnings, []);
    await context.close();
  });

  test('modifier clicks, external and same-page hash links are left to the browser', async () => {
    const { page, context, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/en/docs/routing`);
    // Shift-click opens a new window natively; this page stays where it is.
    const [popup] = await Promise.all([context.waitForEvent('page'), page.click('.site-nav a[href="/en/blog"]', { modifiers: ['Shift'] })]);
    await popup.waitForLoadState();
    assert.equal(new URL(popup.url()).pathname, '/en/blog');
    await popup.close();
    assert.equal(new URL(page.url()).pathname, '/en/docs/routing');
    // The skip link (a same-page #hash link), used as a keyboard user would.
    await page.focus('.skip-link');
    await page.keyboard.press('Enter');
    assert.equal(new URL(page.url()).hash, '#main');
    assert.ok(!dataRequests.some((request) => request.includes('/en/docs/routing')), 'the hash link fetched nothing');
    await context.close();
  });

  test('an unknown page comes back as the localized not-found screen without a reload', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/de/docs`);
    await markWindow(page);
    await page.click(await appendLink(page, '/de/gibt-es-nicht'));
    await page.waitForURL(`${e2e.server.url}/de/gibt-es-nicht`);
    await page.waitForSelector('.not-found');
    assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
    assert.ok(await hasMarker(page));
    await context.close();
  });

  test('the outdated-translation notice shows on full load and comes and goes with client navigation', async () => {
    // The default site's de docs/routing is deliberately behind its English source.
    const outdated = 'p.notice[data-notice="outdated"]';
    const full = await visit(e2e.browser, `${e2e.server.url}/de/docs/routing`);
    assert.equal(await full.page.getAttribute(`${outdated} a`, 'href'), '/en/docs/routing');
    assert.deepEqual(full.problems, []);
    await full.context.close();

    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/de/docs/configuration`);
    await markWindow(page);
    assert.equal(await page.locator(outdated).count(), 0);
    await page.click('.docs-sidebar a[href="/de/docs/routing"]');
    await page.waitForURL(`${e2e.server.url}/de/docs/routing`);
    await page.waitForSelector(outdated);
    assert.match((await page.textContent(outdated)) ?? '', /Das Original auf Englisch lesen/);
    await page.click(`${outdated} a`);
    await page.waitForURL(`${e2e.server.url}/en/docs/routing`);
    await page.waitForSelector('html[lang="en"]');
    assert.equal(await page.locator(outdated).count(), 0, 'the original has no notice');
    assert.ok(await hasMarker(page), 'never reloaded');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a slow navigation shows the progress bar, a fast one does not', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.evaluate(() => {
      const bar = document.getElementById('polysite-progress')!;
      new MutationObserver(() => {
        if (!bar.hidden) (window as unknown as { shown: boolean }).shown = true;
      }).observe(bar, { attributes: true });
    });
    // The fast one has its data already, prefetched on hover: the click waits for no request,
    // however busy the host is (a request under load could outlast the bar's delay).
    const prefetched = page.waitForResponse((response) => /^\/_data\/[^/]+\/en\/about\.json$/.test(new URL(response.url()).pathname));
    await page.hover('.site-nav a[href="/en/about"]');
    await prefetched;
    await page.click('.site-nav a[href="/en/about"]');
    await page.waitForURL(`${e2e.server.url}/en/about`);
    assert.equal(await page.evaluate(() => (window as unknown as { shown?: boolean }).shown ?? false), false);
    await page.route('**/_data/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.click('.site-nav a[href="/en/blog"]');
    await page.waitForSelector('#polysite-progress:not([hidden])');
    await page.waitForURL(`${e2e.server.url}/en/blog`);
    await page.waitForSelector('#polysite-progress[hidden]', { state: 'attached' });
    await context.close();
  });

  test('a navigation to a #heading below a tab set lands on the heading once the tab set shows one panel', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    await page.click(await appendLink(page, '/en/docs/getting-started#repository-layout'));
    await page.waitForURL(/#repository-layout$/);
    // The tab set above the heading gets its tab list after the page arrived, and is shorter then.
    await page.waitForSelector('.tabs[data-enhanced]');
    const top = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() => resolve(document.getElementById('repository-layout')!.getBoundingClientRect().top)),
        ),
    );
    assert.ok(top >= -2 && top < 200, `the heading is at the top of the screen: ${top}`);
    assert.ok(await hasMarker(page), 'a client navigation');
    await context.close();
  });
});

describe('the head after a client navigation', () => {
  /**
   * <html lang/dir> and every element of <head>, in document order, as [tag, attributes (sorted), text];
   * but the messages preload, a hint for the loading document that names its first locale's file.
   */
  const headOf = (page: Page) =>
    page.evaluate(() => ({
      html: [document.documentElement.lang, document.documentElement.dir],
      elements: [...document.head.children]
        .filter((element) => !element.matches('link[rel="preload"][as="fetch"]'))
        .map((element) => [
          element.tagName.toLowerCase(),
          [...element.attributes].map((attribute) => `${attribute.name}=${attribute.value}`).sort(),
          element.tagName === 'SCRIPT' || element.tagName === 'TITLE' ? element.textContent : '',
        ]),
    }));

  // Every kind of head: home (WebSite), docs (TechArticle + breadcrumbs), blog listing (no JSON-LD),
  // a post (article, published time), another locale (RTL, ar_AR, its feed), an untranslated page,
  // a 404 and search (noindex, no share tags), and back to a page with all of them.
  const TARGETS = [
    '/en/docs/guides/install',
    '/en/blog',
    '/en/blog/introducing-polysite',
    '/ar/blog/translating-with-icu-messages',
    '/ja/docs/deploy/docker',
    '/ja/nope',
    '/ja/search?q=docker',
    '/fr',
    '/de/docs/anleitungen/installation',
    '/ja/%E6%A6%82%E8%A6%81',
  ];

  test('equals a full load of the same URL: title, description, canonical, hreflang, feed, Open Graph, Twitter, JSON-LD', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    const full = await context.newPage();
    for (const target of TARGETS) {
      const before = await page.title();
      await page.evaluate(() => {
        for (const link of document.querySelectorAll('#appended-link')) link.remove();
      });
      await page.click(await appendLink(page, target));
      await page.waitForURL((url) => url.pathname + url.search === target);
      // The head is written in one go, title first: a new title means a new head.
      await page.waitForFunction((title) => document.title !== title, before);
      const navigated = await headOf(page);
      await full.goto(`${e2e.server.url}${target}`);
      // Hydrated, as the navigated page is: the deferred stylesheet came with the page's scripts.
      await full.waitForSelector('html[data-hydrated]', { state: 'attached' });
      const loaded = await headOf(full);
      assert.deepEqual(navigated, loaded, target);
      assert.ok(
        loaded.elements.some(([tag, attributes]) => tag === 'link' && (attributes as string[]).includes('type=application/atom+xml')),
        `${target} links its feed`,
      );
    }
    assert.ok(await hasMarker(page), 'every step was a client navigation');
    // The not-found page's data comes with its 404 status, which Chromium logs.
    assert.deepEqual(
      problems.filter((problem) => !problem.includes('status of 404')),
      [],
    );
    await context.close();
  });
});

test('the blog’s feed link is left to the browser, never fetched as page data', async () => {
  const { page, context, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/de/blog`);
  await markWindow(page);
  const response = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/de/blog/feed.xml');
  await page.click('.feed-link a[type="application/atom+xml"]');
  assert.equal((await response).headers()['content-type'], 'application/atom+xml; charset=utf-8');
  assert.deepEqual(dataRequests, []);
  await context.close();
});

describe('language switcher', () => {
  test('keeps the slug, switches to RTL Arabic, and remembers the choice for /', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en/docs/deploy/heroku`);
    await markWindow(page);
    await page.click('.language-switcher a[hreflang="ar"]');
    await page.waitForURL(`${e2e.server.url}/ar/docs/deploy/heroku`);
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    assert.equal(await page.getAttribute('html', 'lang'), 'ar');
    assert.ok(await hasMarker(page), 'switched without a reload');
    const cookie = (await context.cookies()).find((entry) => entry.name === 'locale');
    assert.equal(cookie?.value, 'ar');
    assert.equal(cookie?.sameSite, 'Lax');
    assert.ok(cookie!.expires - Date.now() / 1000 > 360 * 24 * 3600, 'remembered for a year');
    await page.goto(`${e2e.server.url}/`);
    assert.equal(new URL(page.url()).pathname, '/ar');
    await context.close();
  });
});

describe('localized paths', () => {
  test('the switcher on /de/ueber-uns goes to /ja/概要 by client navigation, and back and forward cross localized paths', async () => {
    const { page, context, dataRequests, problems } = await visit(e2e.browser, `${e2e.server.url}/de/ueber-uns`);
    await markWindow(page);
    await page.click('.language-switcher a[hreflang="ja"]');
    await page.waitForURL(`${e2e.server.url}/ja/%E6%A6%82%E8%A6%81`);
    assert.equal(decodeURI(new URL(page.url()).pathname), '/ja/概要', 'the URL bar shows the Japanese path');
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    assert.equal(await page.getAttribute('link[rel="canonical"]', 'href'), 'https://example.test/ja/%E6%A6%82%E8%A6%81');
    const data = `/_data/${await buildOf(page)}/ja/%E6%A6%82%E8%A6%81.json`;
    assert.ok(
      dataRequests.some((request) => request.startsWith(data)),
      dataRequests.join(' '),
    );

    // The header's links follow the locale's paths too.
    await page.click('.site-nav a[href="/ja/docs"]');
    await page.waitForURL(`${e2e.server.url}/ja/docs`);
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/ja/%E6%A6%82%E8%A6%81`);
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/de/ueber-uns`);
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    assert.equal(await page.getAttribute('.site-nav a[aria-current="page"]', 'href'), '/de/ueber-uns');
    await page.goForward();
    await page.waitForURL(`${e2e.server.url}/ja/%E6%A6%82%E8%A6%81`);
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    assert.ok(await hasMarker(page), 'never reloaded');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a link in the default path form is redirected by the page data and lands on the localized page', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/de`);
    await markWindow(page);
    await page.click(await appendLink(page, '/de/docs/guides/install'));
    await page.waitForURL(`${e2e.server.url}/de/docs/anleitungen/installation`);
    assert.ok(await hasMarker(page), 'never reloaded');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

const buildOf = (page: import('playwright-core').Page) =>
  page.evaluate(() => JSON.parse(document.getElementById('polysite-data')!.textContent!).page.build as string);

describe('fallback to a full page load', () => {
  test('when the data request fails', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    await page.route('**/_data/**', (route) => route.abort('failed'));
    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    await page.waitForSelector('html[data-hydrated]');
    assert.equal(await hasMarker(page), false, 'the document was loaded');
    assert.match(await page.locator('h1').innerText(), /\S/);
    await context.close();
  });

  test("when the locale's messages cannot be had, the server's page stays, unhydrated, and its links load documents", async () => {
    const context = await e2e.browser.newContext();
    await context.route('**/assets/messages-*', (route) => route.abort('failed'));
    const page = await context.newPage();
    await page.goto(`${e2e.server.url}/de/docs`);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('html[data-hydrated]').count(), 0, 'not hydrated');
    assert.equal(await page.getByText(APP_ERROR).count(), 0, 'no failure screen');
    assert.equal(await page.locator('h1').innerText(), 'Dokumentation');
    await markWindow(page);
    await page.click('.site-nav a[href="/de/blog"]');
    await page.waitForURL(`${e2e.server.url}/de/blog`);
    await page.waitForSelector('h1');
    assert.equal(await hasMarker(page), false, 'the link loaded a document');
    await context.close();
  });

  test('when the server says the build is stale', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    // The client holds an older build: rewrite its data URLs to an unknown build id.
    await page.route('**/_data/**', (route) =>
      route.continue({
        url: route
          .request()
          .url()
          .replace(/\/_data\/[^/]+\//, '/_data/old-build/'),
      }),
    );
    await page.click('.site-nav a[href="/en/blog"]');
    await page.waitForURL(`${e2e.server.url}/en/blog`);
    await page.waitForSelector('html[data-hydrated]');
    assert.equal(await hasMarker(page), false);
    await context.close();
  });
});

describe('history and scroll, as the browser would keep them', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 400)); // past the scroll save debounce

  test('forward and reload come back where the visitor left the page', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    // The sidebar opens a section on the way to a page: guides first, then its install page.
    await page.click('.docs-sidebar a[href="/en/docs/guides"]');
    await page.waitForURL(`${e2e.server.url}/en/docs/guides`);
    await page.click('.docs-sidebar a[href="/en/docs/guides/install"]');
    await page.waitForURL(`${e2e.server.url}/en/docs/guides/install`);
    await page.evaluate(() => scrollTo(0, 600));
    await settle();
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en/docs/guides`);
    await page.goForward();
    await page.waitForURL(`${e2e.server.url}/en/docs/guides/install`);
    await page.waitForFunction(() => Math.abs(scrollY - 600) < 2, null, { timeout: 5000 });
    await page.evaluate(() => scrollTo(0, 400));
    await settle();
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    await page.waitForFunction(() => Math.abs(scrollY - 400) < 2, null, { timeout: 5000 });
    // Back to a document that was loaded in full (the reload) restores too.
    await page.goto(`${e2e.server.url}/en/about`);
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en/docs/guides/install`);
    await page.waitForFunction(() => Math.abs(scrollY - 400) < 2, null, { timeout: 5000 });
    assert.deepEqual(problems, []);
    await context.close();
  });

  // The blocks a reader jumps over are never laid out (content-visibility): had the position
  // been kept in pixels of estimated sizes, the restored page, laid out whole, would show other text.
  test('a reload, and back after a link, after a jump far down a long page come back to the same text', async () => {
    const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/en/docs/content`);
    await settle(); // the navigator has started
    const textAtTop = () =>
      page.evaluate(() => {
        const blocks = [...document.querySelector('main .prose')!.children];
        const index = blocks.findIndex((block) => block.getBoundingClientRect().bottom > 0);
        return { index, top: Math.round(blocks[index]!.getBoundingClientRect().top) };
      });
    // Most of the way down in one move, as by the scroll bar.
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight * 0.7));
    await settle();
    const left = await textAtTop();
    assert.ok(left.index > 8, `the screen is past the blocks laid out at first: ${JSON.stringify(left)}`);
    const sameText = (at: { index: number; top: number }) => {
      const block = document.querySelector('main .prose')?.children[at.index];
      return block !== undefined && Math.abs(block.getBoundingClientRect().top - at.top) < 2;
    };
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    await page.waitForFunction(sameText, left);
    // Away by a link and back: the client navigation restores it the same way. (Clicked where it
    // is: Playwright's click would first scroll the header's link into view, and move the reader.)
    await page.evaluate(() => document.querySelector<HTMLElement>('.site-nav a[href="/en/about"]')!.click());
    await page.waitForURL(`${e2e.server.url}/en/about`);
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en/docs/content`);
    await page.waitForFunction(sameText, left);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the End key goes to the real end of a long page, though most of its text was never laid out', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en/docs/content`);
    await settle(); // the navigator has started
    await page.locator('main h1').click();
    await page.keyboard.press('End');
    await settle();
    const { fromEnd, copyright } = await page.evaluate(() => ({
      fromEnd: document.documentElement.scrollHeight - innerHeight - scrollY,
      // Within a pixel: the page's height can end in a fraction of one, which the scroll position rounds away.
      copyright: document.querySelector('.site-footer')!.getBoundingClientRect().bottom <= innerHeight + 1,
    }));
    assert.ok(fromEnd < 2 && copyright, `at the end, the footer on screen: ${fromEnd} px from the end`);
    await context.close();
  });

  test('back then forward before the data arrives ends on the forward page', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    await page.waitForSelector('.docs-sidebar');
    // The home page's data was never fetched (it came with the document): make it slow.
    await page.route('**/_data/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en`);
    await page.goForward();
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    await new Promise((resolve) => setTimeout(resolve, 800)); // past the slow answer
    assert.equal(await page.locator('.docs-sidebar').count(), 1, 'the docs page is shown at the docs URL');
    await context.close();
  });

  test('back to a page visited by a click uses the data already fetched', async () => {
    const { page, context, dataRequests } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await page.click('.site-nav a[href="/en/about"]');
    await page.waitForURL(`${e2e.server.url}/en/about`);
    await page.click('.site-nav a[href="/en/blog"]');
    await page.waitForURL(`${e2e.server.url}/en/blog`);
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en/about`);
    await page.waitForSelector('main h1:focus');
    assert.equal(dataRequests.filter((request) => request.includes('/en/about.json')).length, 1);
    await context.close();
  });

  test('a double click on a slow link still navigates, once', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    await page.route('**/_data/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    const before = await page.evaluate(() => history.length);
    await page.dblclick('.site-nav a[href="/en/blog"]');
    await page.waitForURL(`${e2e.server.url}/en/blog`);
    await page.waitForSelector('.post-list');
    assert.ok(await hasMarker(page), 'no document load');
    assert.equal(await page.evaluate(() => history.length), before + 1);
    await context.close();
  });

  test('a link to the page already shown adds no history entry', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en/about`);
    await markWindow(page);
    const before = await page.evaluate(() => history.length);
    await page.click('.site-nav a[href="/en/about"]');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await page.evaluate(() => history.length), before);
    assert.ok(await hasMarker(page));
    await context.close();
  });

  test('a redirected link keeps its #hash and lands on the heading', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    await page.click(await appendLink(page, '/en/docs/routing/#page-data'));
    await page.waitForURL(`${e2e.server.url}/en/docs/routing#page-data`);
    await page.waitForFunction(() => {
      const heading = document.getElementById('page-data');
      // At the top of the screen, but for the room its scroll margin leaves above it.
      return (
        heading !== null && Math.abs(heading.getBoundingClientRect().top - Number.parseFloat(getComputedStyle(heading).scrollMarginTop)) < 5
      );
    });
    assert.ok(await hasMarker(page));
    await context.close();
  });
});

describe('the client-side error screen', () => {
  test('a render exception during hydration shows the failure screen with the exact heading', async () => {
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    // Corrupt the embedded data so a screen throws while rendering.
    await page.route('**/ar/docs', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"nav":\[.*?\],"locales"/s, '"nav":null,"locales"');
      await route.fulfill({ response, body });
    });
    await page.goto(`${e2e.server.url}/ar/docs`);
    await page.waitForSelector('.app-error');
    assert.equal(await page.locator('h1').innerText(), APP_ERROR);
    assert.equal(await page.getAttribute('.app-error', 'dir'), 'ltr');
    assert.ok(await page.getByRole('button').isVisible());
    assert.equal(await page.locator('.docs-sidebar').count(), 0, 'nothing of the broken page is left');
    assert.ok(errors.length > 0, 'the error is written to the console');
    await context.close();
  });

  test('a render exception after a navigation first tries a full page load of the target', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    await markWindow(page);
    await page.route('**/_data/**', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"toc":\[.*?\],"sidebar"/s, '"toc":null,"sidebar"');
      await route.fulfill({ response, body });
    });
    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForURL(`${e2e.server.url}/en/docs`);
    await page.waitForFunction(() => !(window as unknown as { polysiteMarker?: number }).polysiteMarker);
    await page.waitForSelector('.docs-sidebar');
    assert.equal(await page.locator('.app-error').count(), 0);
    await context.close();
  });

  test('once the error screen shows, back is a full load of the previous page', async () => {
    const { page, context } = await visit(e2e.browser, `${e2e.server.url}/en`);
    // Both the page data and the document of /en/docs are broken, so the one reload fails too.
    const corrupt = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"nav":\[.*?\],"locales"/s, '"nav":null,"locales"');
      await route.fulfill({ response, body });
    };
    await page.route('**/_data/**/en/docs.json*', corrupt);
    await page.route('**/en/docs', corrupt);
    await page.click('.site-nav a[href="/en/docs"]');
    await page.waitForSelector('.app-error');
    await page.goBack();
    await page.waitForURL(`${e2e.server.url}/en`);
    await page.waitForSelector('html[data-hydrated] .home');
    assert.equal(await page.locator('.app-error').count(), 0);
    await context.close();
  });
});
