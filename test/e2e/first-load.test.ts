import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { withServerAndBrowser } from '../helpers/e2e.ts';

// The first second, as far as it does not depend on timing: what the first paint may wait
// for, and whether anything moves while the page hydrates. (Speed itself is measured by
// `npm run bench -- --only lighthouse`, not asserted.)

const e2e = withServerAndBrowser();

/** Lighthouse's phone, and a wide screen where the docs show their sidebar and "On this page" column. */
const SCREENS = [
  { name: 'phone', viewport: { width: 412, height: 823 } },
  { name: 'wide screen', viewport: { width: 1350, height: 940 } },
];

const DOCS_PAGES = ['/en/docs/guides/install', '/ar/docs/guides/install'];

/** Layout shifts the page reports from the start, and CSP violations, collected before any script of the page runs. */
async function observe(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = window as unknown as { shifts: { value: number; sources: string[] }[]; violations: string[] };
    record.shifts = [];
    record.violations = [];
    addEventListener('securitypolicyviolation', (event) => record.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node }[] })[]) {
        const sources = (entry.sources ?? []).map((source) =>
          source.node instanceof Element ? source.node.outerHTML.slice(0, 120) : String(source.node?.nodeName),
        );
        record.shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** After hydration, the navigator's start and the copy buttons' script (where the page has code): two frames later, everything recorded. */
async function settled(page: Page) {
  await page.waitForSelector('html[data-hydrated]');
  if (await page.locator('.code-copy').count()) await page.waitForSelector('.code-copy:not([hidden])', { state: 'attached' });
  return page.evaluate(() =>
    new Promise<{ shifts: { value: number; sources: string[] }[]; violations: string[] }>((resolve) =>
      requestAnimationFrame(() =>
        requestAnimationFrame(() => resolve(window as unknown as { shifts: { value: number; sources: string[] }[]; violations: string[] })),
      ),
    ).then(({ shifts, violations }) => ({ shifts, violations })),
  );
}

describe('the first paint', () => {
  for (const path of ['/en', ...DOCS_PAGES, '/ja/search?q=install']) {
    test(`${path} waits for no stylesheet: its critical CSS is inlined, allowed by the CSP's hash, and the rest does not block`, async () => {
      const context = await e2e.browser.newContext();
      const page = await context.newPage();
      await observe(page);
      const response = (await page.goto(e2e.server.url + path))!;
      await settled(page);

      const inline = await page.evaluate(() => [...document.querySelectorAll('head style')].map((style) => style.textContent ?? ''));
      assert.equal(inline.length, 1, 'one inline stylesheet');
      const hash = `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`;
      const csp = (await response.allHeaders())['content-security-policy'] ?? '';
      assert.match(csp, new RegExp(`style-src 'self' ${hash.replace(/[+/]/g, '\\$&')}(;|$)`), 'the CSP names the inlined CSS by its hash');

      // Chromium's own account of each stylesheet fetched: whether the first paint waited for it.
      const sheets = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as (PerformanceResourceTiming & { renderBlockingStatus?: string })[])
          .filter((entry) => entry.initiatorType === 'link' && /\.css(\?|$)/.test(entry.name))
          .map((entry) => ({ url: entry.name, blocking: entry.renderBlockingStatus, bytes: entry.decodedBodySize })),
      );
      assert.ok(sheets.length >= 1, 'the deferred stylesheet is fetched');
      const blocking = sheets.filter((sheet) => sheet.blocking !== 'non-blocking');
      assert.deepEqual(
        blocking.filter((sheet) => sheet.bytes > Buffer.byteLength(inline[0]!)),
        [],
        'no render-blocking stylesheet larger than the inlined critical part',
      );
      assert.deepEqual(blocking, [], 'in fact, none blocks the first paint');

      // The inlined rules apply (the CSP did not refuse them), and so do the deferred ones once the script ran.
      const { violations } = await settled(page);
      assert.deepEqual(violations, [], 'no CSP violation');
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).display), 'flex');
      assert.equal(
        await page.evaluate(() => (document.getElementById('polysite-deferred-css') as HTMLLinkElement).sheet?.media.length),
        0,
        'for every medium',
      );
      await context.close();
    });
  }
});

describe('no inline script', () => {
  for (const path of ['/en', ...DOCS_PAGES, '/ja/search?q=install', '/en/nope']) {
    test(`${path}: every script is a file or a data block, and the CSP allows scripts by 'self' alone, with no hash and no 'unsafe-inline'`, async () => {
      const context = await e2e.browser.newContext();
      const page = await context.newPage();
      await observe(page);
      const response = (await page.goto(e2e.server.url + path))!;
      // The document as sent (the scripts' <template> included), not as the scripts left it.
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, body]) => ({
        attributes: attributes!,
        body: body!,
      }));
      assert.ok(scripts.length >= 3, 'the head script, the page data, the entry');
      for (const { attributes, body } of scripts) {
        if (/\bsrc="/.test(attributes)) assert.equal(body, '', `${attributes}: a file, with no text`);
        else assert.match(attributes, /^ type="application\/(ld\+)?json"( id="[^"]+")?$/, `<script${attributes}>: a data block, never run`);
      }

      const csp = (await response.allHeaders())['content-security-policy'] ?? '';
      const directives = new Map(
        csp
          .split(';')
          .map((directive) => directive.trim().split(/\s+/) as [string, ...string[]])
          .map(([name, ...sources]) => [name, sources]),
      );
      assert.deepEqual(directives.get('script-src'), ["'self'"]);
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.deepEqual(
        [...directives]
          .filter(([, sources]) => sources.some((source) => /^'(sha256|sha384|sha512|nonce)-/.test(source)))
          .map(([name]) => name),
        ['style-src'],
        'a hash in style-src alone (the inlined critical CSS), none for a script',
      );

      // The head's script: first in the head after the meta elements, classic and blocking (it runs before the
      // first paint), cached for a year under its content hash, and run with no CSP violation.
      const head = /<head>((?:<meta [^>]*>)*)<script src="(\/assets\/head-[0-9A-F]{8}\.js)"><\/script><title>/.exec(html);
      assert.ok(head, 'the head script, a classic <script src> with no async, defer or type, before the title');
      const asset = await context.request.get(e2e.server.url + head[2]);
      assert.equal(asset.status(), 200);
      assert.match(asset.headers()['content-type'] ?? '', /^text\/javascript; charset=utf-8$/);
      assert.match(asset.headers()['cache-control'] ?? '', /immutable/);
      assert.match(await asset.text(), /polysite-theme/);
      await page.waitForSelector('html[data-hydrated]');
      assert.deepEqual((await settled(page)).violations, [], 'no CSP violation');
      await context.close();
    });
  }
});

describe("the page's scripts", () => {
  for (const path of ['/en', '/ar/docs/guides/install']) {
    test(`${path} fetches nothing but its head script before its first contentful paint: its scripts, messages and the rest of its CSS come after, then it hydrates`, async () => {
      const context = await e2e.browser.newContext();
      const page = await context.newPage();
      await observe(page);
      await page.goto(e2e.server.url + path);
      const { violations } = await settled(page);
      assert.deepEqual(violations, [], "no CSP violation: the head script that loads them is a file, allowed by 'self'");
      const { paint, fetched } = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        fetched: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => !/\/assets\/head-/.test(entry.name))
          .map((entry) => ({ url: entry.name.replace(/^.*\/assets\//, ''), start: entry.startTime })),
      }));
      assert.ok(paint !== undefined, 'a first contentful paint');
      for (const kind of ['main-', 'messages-', 'styles-'])
        assert.ok(
          fetched.some((entry) => entry.url.startsWith(kind)),
          `${kind} was fetched: ${fetched.map((entry) => entry.url)}`,
        );
      for (const entry of fetched)
        assert.ok(entry.start >= paint, `${entry.url} was requested at ${entry.start} ms, before the paint at ${paint} ms`);
      await context.close();
    });
  }
});

describe('hydration moves nothing', () => {
  // The home pages too: what only the script shows is styled by the deferred stylesheet, which comes after the first paint.
  for (const path of [...DOCS_PAGES, '/en', '/ar']) {
    for (const screen of SCREENS) {
      test(`${path} on a ${screen.name}: no layout shift from the first paint to the hydrated page with its copy buttons`, async () => {
        const context = await e2e.browser.newContext({ viewport: screen.viewport });
        const page = await context.newPage();
        await observe(page);
        await page.goto(e2e.server.url + path);
        const { shifts } = await settled(page);
        if (DOCS_PAGES.includes(path))
          assert.ok(await page.locator('.code-copy:not([hidden])').count(), 'the page has code blocks, their copy buttons shown');
        assert.deepEqual(shifts, [], 'no layout-shift entry');
        await context.close();
      });
    }
  }
});

describe("a long page's first layout", () => {
  /**
   * For each block of the text, whether the browser has laid its content out (false: skipped by
   * `content-visibility: auto`). A block's own box is always there; what it skips is inside it,
   * so the probe is an element within (one is added where a block has only text).
   */
  const laidOut = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelector('main .prose')!.children].map((block) =>
        (block.firstElementChild ?? block.appendChild(document.createElement('span'))).checkVisibility({ contentVisibilityAuto: true }),
      ),
    );

  test('/en/docs/content on a phone lays out its first screen of text only, and each further block as it is scrolled to', async () => {
    const context = await e2e.browser.newContext({ viewport: SCREENS[0]!.viewport });
    const page = await context.newPage();
    await observe(page);
    await page.goto(`${e2e.server.url}/en/docs/content`);
    const { shifts } = await settled(page);
    const first = await laidOut(page);
    assert.equal(first[0], true, 'the first block is laid out');
    assert.ok(first.filter((shown) => !shown).length > first.length / 2, `most blocks wait below the screen: ${first.join(',')}`);
    assert.deepEqual(shifts, [], 'no layout-shift entry');
    // Scrolled to the end, block by block as a reader would: every block has been laid out and shows.
    for (let at = 0; at < (await page.evaluate(() => document.documentElement.scrollHeight)); at += 600) {
      await page.evaluate((y) => scrollTo(0, y), at);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    assert.equal((await laidOut(page)).at(-1), true, 'the last block is laid out at the end of the page');
    await context.close();
  });

  test('/en/docs/content#links without JavaScript opens at that heading, every block laid out: no client is there to do it at a jump', async () => {
    const context = await e2e.browser.newContext({ viewport: SCREENS[0]!.viewport, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${e2e.server.url}/en/docs/content#links`); // to its load event
    assert.ok((await laidOut(page)).every(Boolean), 'every block is laid out');
    const offTop = await page.evaluate(() => {
      const heading = document.getElementById('links')!;
      return heading.getBoundingClientRect().top - Number.parseFloat(getComputedStyle(heading).scrollMarginTop);
    });
    assert.ok(Math.abs(offTop) < 2, `the heading is at the top: ${offTop} px off`);
    await context.close();
  });

  // Counted, not timed: the elements each style pass of the page's main thread visited, from the
  // trace. A selector that makes the parser's every new element restyle the whole document (a
  // `:has()` on the root) shows as a second and third pass over all of them.
  for (const path of DOCS_PAGES) {
    test(`${path} is styled once on its way to the first paint, and hydrating restyles no more than a few elements`, async () => {
      const context = await e2e.browser.newContext({ viewport: SCREENS[0]!.viewport });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const events: { name: string; ph: string; pid: number; tid: number; ts: number; args: { elementCount?: number } }[] = [];
      cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as typeof events)));
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,disabled-by-default-devtools.timeline,loading',
        transferMode: 'ReportEvents',
      });
      await page.goto(e2e.server.url + path);
      await settled(page);
      const ended = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await ended;
      const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
      const paint = events.find((event) => event.name === 'firstContentfulPaint')!;
      const passes = events.filter(
        (event) => event.name === 'UpdateLayoutTree' && event.ph === 'X' && event.pid === paint.pid && event.tid === paint.tid,
      );
      const styled = (before: boolean) =>
        passes.filter((pass) => pass.ts < paint.ts === before).reduce((sum, pass) => sum + (pass.args.elementCount ?? 0), 0);
      assert.ok(styled(true) < elements * 1.2, `before the first paint: ${styled(true)} elements styled, of ${elements}`);
      assert.ok(styled(false) < elements * 0.2, `after it: ${styled(false)} elements styled, of ${elements}`);
      await context.close();
    });
  }

  test('/en/docs/content#adding-a-language opens at that heading, and a link of "On this page" lands on its heading, though the blocks above are laid out only then', async () => {
    const context = await e2e.browser.newContext({ viewport: SCREENS[0]!.viewport });
    const page = await context.newPage();
    await page.goto(`${e2e.server.url}/en/docs/content#adding-a-language`);
    await settled(page);
    // At the top of the screen, but for the room its scroll margin leaves above it.
    const offTop = (id: string) =>
      page.evaluate((id) => {
        const heading = document.getElementById(id)!;
        return heading.getBoundingClientRect().top - Number.parseFloat(getComputedStyle(heading).scrollMarginTop);
      }, id);
    assert.ok(Math.abs(await offTop('adding-a-language')) < 2, `the heading is at the top: ${await offTop('adding-a-language')} px off`);
    await page.click('.toc summary');
    await page.click('.toc a[href="#links"]');
    await page.waitForURL(/#links$/);
    assert.ok(Math.abs(await offTop('links')) < 2, `the linked heading is at the top: ${await offTop('links')} px off`);
    await context.close();
  });

  // Same-page #links are the browser's own scroll, before hydration and after it alike (the
  // client leaves them to the browser: links.ts): the head script lays the text out first.
  for (const hydrated of [false, true]) {
    test(`a link of "On this page" clicked ${hydrated ? 'once the page has hydrated' : 'before the page hydrates'} lands on its heading, the whole text laid out first by the head script`, async () => {
      const context = await e2e.browser.newContext({ viewport: SCREENS[0]!.viewport });
      const page = await context.newPage();
      // Without its main module, the head script is all the script there is, as in the moments
      // between the first paint and hydration.
      if (!hydrated) await page.route(/\/assets\/main-[^/]+\.js$/, (route) => route.abort());
      await page.goto(`${e2e.server.url}/en/docs/content`);
      if (hydrated) await settled(page);
      await page.click('.toc summary');
      await page.click('.toc a[href="#adding-a-language"]');
      await page.waitForURL(/#adding-a-language$/);
      const at = await page.evaluate(() => {
        const heading = document.getElementById('adding-a-language')!;
        return {
          offTop: heading.getBoundingClientRect().top - Number.parseFloat(getComputedStyle(heading).scrollMarginTop),
          hydrated: document.documentElement.hasAttribute('data-hydrated'),
        };
      });
      assert.equal(at.hydrated, hydrated, hydrated ? 'the page has hydrated' : 'the page has not hydrated');
      assert.ok(Math.abs(at.offTop) < 2, `the heading is at the top: ${at.offTop} px off`);
      await context.close();
    });
  }
});

describe('a document that arrives in pieces', () => {
  // A slow link (here 8 KB/s for the document alone) hands the parser the page in pieces. A
  // browser that painted each piece would size a table's columns, the header's rows and the
  // docs grid for the part it had, and move them when the rest came.
  const cases = [
    { path: '/en/docs/configuration', what: 'a table whose longer rows come last' },
    { path: '/ar/docs/guides/install', what: 'a header whose switchers come last' },
  ];
  for (const { path, what } of cases) {
    test(`${path} (${what}), on a wide screen: first painted whole, so nothing moves`, async () => {
      const context = await e2e.browser.newContext({ viewport: SCREENS[1]!.viewport });
      const page = await context.newPage();
      await observe(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 8_000, uploadThroughput: -1 });
      await page.goto(e2e.server.url + path, { waitUntil: 'domcontentloaded' });
      // The document is in: the assets come at full speed.
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const { shifts } = await settled(page);
      assert.deepEqual(shifts, [], 'no layout-shift entry');
      await context.close();
    });
  }
});
