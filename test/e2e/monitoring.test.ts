import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvelope } from '@sentry/core';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
import { startServer, startServerExpectingFailure, type RunningServer } from '../helpers/server.ts';
import { startUpstream, type Upstream } from '../helpers/upstream.ts';
import { visit } from '../helpers/visit.ts';

/**
 * The real @sentry/browser in Chromium, the built server's relay, and a loopback
 * stand-in for Sentry that records what arrives. MONITORING_PATH is changed to
 * prove the option is honoured end to end.
 */
let upstream: Upstream;
let server: RunningServer;
let browser: Browser;
const PATH = '/t/ingest';

before(async () => {
  upstream = await startUpstream();
  [server, browser] = await Promise.all([
    startServer({
      SENTRY_DSN: `http://publickey123@127.0.0.1:${upstream.port}/42`,
      SENTRY_ENVIRONMENT: 'e2e',
      SENTRY_TRACES_SAMPLE_RATE: '1',
      MONITORING_PATH: PATH,
    }),
    launchBrowser(),
  ]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

/** Every item that reached the stand-in, decoded with the SDK's own envelope parser. */
function items() {
  return upstream.received.flatMap((request) => {
    const [header, entries] = parseEnvelope(new Uint8Array(request.body));
    return entries.map(([itemHeader, payload]) => ({
      request,
      header,
      type: itemHeader.type as string,
      payload: payload as Record<string, any>,
    }));
  });
}

async function waitForItem(predicate: (item: ReturnType<typeof items>[number]) => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = items().find(predicate);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no matching item; got ${
          items()
            .map((item) => item.type)
            .join(', ') || 'nothing'
        }`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('browser reports through the relay', () => {
  test('a thrown error arrives as an event, with the configured environment, and no cookie goes upstream', async () => {
    const { page, context } = await visit(browser, `${server.url}/en`);
    await context.addCookies([{ name: 'locale', value: 'en', url: server.url }]);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /chunk-/.test(entry.name)));
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('e2e thrown error');
      }),
    );
    const item = await waitForItem((entry) => entry.type === 'event' && JSON.stringify(entry.payload).includes('e2e thrown error'));
    assert.equal(item.payload.environment, 'e2e');
    assert.equal(item.request.url, '/api/42/envelope/?sentry_version=7&sentry_key=publickey123');
    assert.equal(item.request.headers.cookie, undefined);
    assert.equal(item.request.headers['content-type'], 'application/x-sentry-envelope');
    await context.close();
  });

  test('a render exception shows the error screen and arrives as an event', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('**/de/docs', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"nav":\[.*?\],"locales"/s, '"nav":null,"locales"');
      await route.fulfill({ response, body });
    });
    await page.goto(`${server.url}/de/docs`);
    await page.waitForSelector('.app-error');
    await waitForItem(
      (entry) =>
        entry.type === 'event' &&
        /sidebar|null|map/i.test(JSON.stringify(entry.payload.exception ?? {})) &&
        entry.payload.request?.url?.includes('/de/docs'),
    );
    await context.close();
  });

  // @sentry/browser 11 streams spans by default (traceLifecycle 'stream'): a page load is a
  // `span` item whose segment span has op `pageload` and carries ttfb/fcp as
  // `browser.web_vital.*` attributes, with LCP and CLS as child spans. Older SDKs sent
  // the same data as a `transaction` item with `measurements`.
  test('a page load with sampling 1.0 arrives as a pageload segment with web vitals, and a client navigation as a navigation segment', async () => {
    const spans = () =>
      items()
        .filter((entry) => entry.type === 'span')
        .flatMap((entry) => entry.payload.items as Record<string, any>[]);
    const op = (span: Record<string, any>) => span.attributes?.['sentry.op']?.value;
    const { page, context } = await visit(browser, `${server.url}/fr/docs/routing`);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /chunk-/.test(entry.name)));
    await page.click('.site-nav a[href="/fr/blog"]');
    await page.waitForURL(`${server.url}/fr/blog`);
    await page.waitForTimeout(1500);
    await page.goto('about:blank'); // page hide flushes what is buffered
    await waitForItem(() => spans().some((span) => op(span) === 'navigation'), 20_000);
    const pageload = spans().find((span) => op(span) === 'pageload' && span.attributes['url.path']?.value === '/fr/docs/routing');
    assert.ok(pageload, 'a pageload segment arrived');
    assert.equal(pageload.is_segment, true);
    assert.ok(pageload.attributes['browser.web_vital.ttfb.value']?.value > 0, 'ttfb measured');
    assert.ok(pageload.attributes['browser.web_vital.fcp.value']?.value > 0, 'fcp measured');
    assert.ok(
      spans().some((span) => op(span) === 'ui.webvital.lcp' && span.attributes['browser.web_vital.lcp.value']?.value > 0),
      'lcp measured',
    );
    await context.close();
  });
});

describe('the relay on the built server', () => {
  // The browser of the tests above may still flush envelopes through the relay to the
  // configured stand-in while this runs: its connection count proves nothing here. The
  // foreign DSN names a stand-in of its own, which must never be dialled, and the
  // configured one must never see the foreign envelope.
  test('a foreign DSN is refused with 403 and nothing reaches its host or the configured one', async () => {
    const elsewhere = await startUpstream();
    try {
      const envelope = `${JSON.stringify({ dsn: `http://otherkey@127.0.0.1:${elsewhere.port}/7` })}\n{"type":"event"}\n{}\n`;
      const response = await fetch(server.url + PATH, { method: 'POST', body: envelope });
      assert.equal(response.status, 403);
      assert.equal(elsewhere.connections(), 0);
      assert.ok(!upstream.received.some((request) => request.body.includes('otherkey')));
    } finally {
      await elsewhere.close();
    }
  });

  test('GET on the relay is 405 with Allow: POST, and the old default path is not the relay', async () => {
    const response = await get(server.url, PATH);
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'POST');
    assert.notEqual((await fetch(`${server.url}/monitoring`, { method: 'POST', body: 'x', redirect: 'manual' })).status, 200);
  });
});

describe('without SENTRY_DSN', () => {
  test('the monitoring path is a 404 and no Sentry code reaches the browser', async () => {
    const plain = await startServer();
    try {
      assert.equal((await fetch(`${plain.url}/monitoring`, { method: 'POST', body: 'x' })).status, 404);
      const { page, context } = await visit(browser, `${plain.url}/en`);
      await page.waitForTimeout(1500);
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.endsWith('.js')),
      );
      const html = (await get(plain.url, '/en')).body;
      const firstLoad = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
      const loaded = scripts.map((name) => new URL(name).pathname);
      for (const file of firstLoad) assert.ok(loaded.includes(file), `${file} is loaded`);
      // Client navigation loads after hydration; whatever loaded, none of it is the SDK
      // (its transports all put the DSN's key in `sentry_key`).
      for (const file of new Set(loaded)) {
        assert.doesNotMatch((await get(plain.url, file)).body.toString(), /sentry_key/, `${file} carries no Sentry code`);
      }
      assert.doesNotMatch(await page.content(), /"monitoring"/);
      await context.close();
    } finally {
      await plain.stop();
    }
  });

  for (const workers of ['1', '2']) {
    test(`a SENTRY_DSN that does not parse stops start-up with one clear line (WEB_CONCURRENCY=${workers})`, async () => {
      const { code, stderr } = await startServerExpectingFailure({ SENTRY_DSN: 'not a dsn', WEB_CONCURRENCY: workers });
      assert.equal(code, 1);
      assert.match(stderr, /SENTRY_DSN/);
      assert.equal(stderr.trim().split('\n').length, 1);
    });
  }
});
