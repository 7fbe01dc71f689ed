import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocaleMessages } from '../../src/i18n/intl.ts';
import { createPageLoader, type LoadResult } from '../../src/client/page-loader.ts';
import { dataUrl } from '../../src/routes/page-data.ts';

// The page loader's cache and abort rules, against a real HTTP server on loopback
// that answers page data as the server does. The browser resolves the loader's
// same-origin URLs against the page's origin; here fetch resolves them against the
// test server's (the only thing the test supplies).

const BUILD = 'b1';
const page = (path: string, build = BUILD) => ({ build, status: 200, locale: path.split('/')[1], path, screen: { kind: 'article' } });

/** What the test server answers for a path, and how long it waits first. */
const answers = new Map<string, { status: number; body: unknown; delayMs?: number }>();
const asked: string[] = [];
let server: Server;
let origin = '';
const realFetch = globalThis.fetch;

before(async () => {
  server = createServer((req, res) => {
    asked.push(req.url!);
    const answer = answers.get(req.url!) ?? { status: 404, body: { page: null } };
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    }, answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.fetch = (input, init) => realFetch(new URL(String(input), origin), init);
});
after(() => {
  globalThis.fetch = realFetch;
  server.close();
});
beforeEach(() => {
  answers.clear();
  asked.length = 0;
});

const enMessages: LocaleMessages = { locale: 'en', messages: {}, defaultLocale: 'en', defaults: {} };
/** A loader for a client that has the English messages, and the German ones at /assets/messages-de.json. */
const makeLoader = () =>
  createPageLoader(
    BUILD,
    { en: '/assets/messages-en.json', de: '/assets/messages-de.json' },
    (locale) => (locale === 'en' ? enMessages : undefined),
    () => null,
  );

function serve(path: string, body: unknown, status = 200, delayMs = 0) {
  answers.set(dataUrl(BUILD, path), { status, body, delayMs });
}

const kind = (result: LoadResult) => result.kind;

test('a prefetched page is fetched once, and a click reuses it', async () => {
  serve('/en/a', { page: page('/en/a') });
  const loader = makeLoader();
  loader.prefetch('/en/a');
  const result = await loader.load('/en/a', new AbortController().signal);
  assert.equal(kind(result), 'page');
  await loader.load('/en/a', new AbortController().signal);
  assert.deepEqual(asked, [dataUrl(BUILD, '/en/a')]);
});

test('a failure is not kept: a 5xx, another build’s 409 or another build’s data means reload, and the next load asks again', async () => {
  const loader = makeLoader();
  serve('/en/five', { error: 'x' }, 503);
  serve('/en/stale', { error: 'another build' }, 409);
  serve('/en/other', { page: page('/en/other', 'b0') });
  for (const path of ['/en/five', '/en/stale', '/en/other']) {
    assert.equal(kind(await loader.load(path, new AbortController().signal)), 'reload', path);
    assert.equal(kind(await loader.load(path, new AbortController().signal)), 'reload', path);
  }
  assert.equal(asked.length, 6, 'each load asked again');
});

test('a redirect in page data is a redirect', async () => {
  serve('/en/old', { redirect: '/en/new' });
  assert.deepEqual(await makeLoader().load('/en/old', new AbortController().signal), { kind: 'redirect', to: '/en/new' });
});

test('a load aborted in flight is forgotten at once: the next load asks again and gets the page', async () => {
  serve('/en/slow', { page: page('/en/slow') }, 200, 200);
  const loader = makeLoader();
  const first = new AbortController();
  const pending = loader.load('/en/slow', first.signal);
  first.abort();
  await assert.rejects(pending, { name: 'AbortError' });
  // Handed the aborted promise, this load would reject too: it asks again and gets the page.
  // (Whether the aborted request reached the server first is the runtime's affair.)
  const again = await loader.load('/en/slow', new AbortController().signal);
  assert.equal(kind(again), 'page');
  assert.ok(asked.length >= 1);
});

test('an abort after the data arrived keeps the page for back and forward', async () => {
  serve('/en/kept', { page: page('/en/kept') });
  const loader = makeLoader();
  const navigation = new AbortController();
  await loader.load('/en/kept', navigation.signal);
  navigation.abort();
  assert.equal(kind(await loader.load('/en/kept', new AbortController().signal)), 'page');
  assert.equal(asked.length, 1);
});

test('a page in a locale the client lacks comes with its messages, fetched side by side; without them, reload', async () => {
  serve('/de/a', { page: page('/de/a') });
  const deMessages = { locale: 'de', messages: {}, defaultLocale: 'en', defaults: {} };
  answers.set('/assets/messages-de.json', { status: 200, body: deMessages });
  const result = await makeLoader().load('/de/a', new AbortController().signal);
  assert.deepEqual(result, { kind: 'page', page: page('/de/a'), messages: deMessages });
  assert.deepEqual(asked.sort(), ['/assets/messages-de.json', dataUrl(BUILD, '/de/a')].sort());

  answers.set('/assets/messages-de.json', { status: 500, body: {} });
  serve('/de/b', { page: page('/de/b') });
  assert.equal(kind(await makeLoader().load('/de/b', new AbortController().signal)), 'reload');
});

test('the cache is bounded: after 64 other pages, the first is fetched again', async () => {
  const loader = makeLoader();
  for (let index = 0; index <= 64; index++) serve(`/en/p${index}`, { page: page(`/en/p${index}`) });
  await loader.load('/en/p0', new AbortController().signal);
  for (let index = 1; index <= 64; index++) await loader.load(`/en/p${index}`, new AbortController().signal);
  asked.length = 0;
  await loader.load('/en/p0', new AbortController().signal);
  assert.deepEqual(asked, [dataUrl(BUILD, '/en/p0')]);
});
