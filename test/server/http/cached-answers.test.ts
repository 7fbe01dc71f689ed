import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { RenderCache } from '../../../src/server/http/bounded-cache.ts';
import { cachedAnswers, rememberAnswer } from '../../../src/server/http/cached-answers.ts';
import { StoredBody } from '../../../src/server/http/stored-body.ts';
import { Lifecycle } from '../../../src/server/http/lifecycle.ts';
import type { LogLevel } from '../../../src/server/config.ts';
import { createLogger } from '../../../src/server/http/log.ts';
import { negotiateEncoding, sendStored } from '../../../src/server/http/send.ts';
import { serveApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function ask(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers that are the page's, not the request's. */
function pageHeaders({ headers }: Answer): Record<string, unknown> {
  const { date: _date, 'x-request-id': _id, ...rest } = headers;
  return rest;
}

/** One page of each kind the default site has, in a left-to-right and a right-to-left locale. */
const PAGES_OF_EVERY_KIND = [
  '/en',
  '/ar',
  '/de/docs/anleitungen/installation',
  '/ar/docs',
  '/fr/blog',
  '/ja/blog/introducing-polysite',
  '/de/ueber-uns',
  '/ar/%D8%AD%D9%88%D9%84',
];

describe('a page the render cache holds, answered again (the real site)', () => {
  let site: Awaited<ReturnType<typeof serveApp>>;
  before(async () => {
    site = await serveApp({ RENDER_CACHE: 'on', TRUST_PROXY: '1' });
  });
  after(() => site.close());

  for (const acceptEncoding of ['br', 'gzip', 'identity']) {
    test(`has the status, headers and bytes of the app's answer from the cache, with its own request id (${acceptEncoding})`, async () => {
      const path = '/de/docs/anleitungen/installation';
      // The answer that renders the page is compressed for itself alone (send.ts); the app's next one is the kept form.
      await ask(site.url, path, { 'Accept-Encoding': 'identity' });
      const first = await ask(site.url, path, { 'Accept-Encoding': acceptEncoding });
      const again = [
        await ask(site.url, path, { 'Accept-Encoding': acceptEncoding }),
        await ask(site.url, path, { 'Accept-Encoding': acceptEncoding }),
      ];
      assert.equal(first.status, 200);
      for (const answer of again) {
        assert.equal(answer.status, 200);
        assert.deepEqual(pageHeaders(answer), pageHeaders(first));
        assert.ok(answer.body.equals(first.body), 'the same bytes');
        assert.match(String(answer.headers['x-request-id']), /^[\w-]{36}$/);
        assert.notEqual(answer.headers['x-request-id'], first.headers['x-request-id']);
      }
      assert.equal(first.headers['content-encoding'], acceptEncoding === 'identity' ? undefined : acceptEncoding);
    });
  }

  // The cached lane skips createApp's middleware and replays what the first answer
  // recorded: a header added to one path and not the other shows up here.
  test('the cached answer has the same headers as the app’s, for every kind of page, encoding, HEAD and GET, over http and https', async () => {
    let compared = 0;
    for (const path of PAGES_OF_EVERY_KIND) {
      // Rendered and kept: the app answers from the render cache, as the lane does.
      await ask(site.url, path, { 'Accept-Encoding': 'identity' });
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        for (const proto of ['http', 'https']) {
          const headers = { 'Accept-Encoding': acceptEncoding, 'X-Forwarded-Proto': proto };
          const fromApp = await ask(site.url, path, headers);
          assert.equal(fromApp.status, 200, path);
          const head = await ask(site.url, path, headers, 'HEAD');
          const cached = await ask(site.url, path, headers);
          const where = `${path} ${acceptEncoding} ${proto}`;
          assert.deepEqual(pageHeaders(cached), pageHeaders(fromApp), `GET, cached: ${where}`);
          assert.deepEqual(pageHeaders(head), pageHeaders(fromApp), `HEAD: ${where}`);
          assert.equal(head.body.length, 0);
          assert.ok(cached.body.equals(fromApp.body), where);
          assert.equal(fromApp.headers['strict-transport-security'] !== undefined, proto === 'https', where);
          compared++;
        }
      }
    }
    assert.equal(compared, PAGES_OF_EVERY_KIND.length * 6);
  });
});

/**
 * The lane alone, in front of a real Koa app that answers one kept page the way
 * pages.ts does and counts the requests that reach it.
 */
async function laneBeforeApp({ trustProxy = 0, logLevel = 'info' as LogLevel, html = HTML } = {}) {
  const pages = new RenderCache(64 * 1024 * 1024);
  pages.set(PAGE, new StoredBody(html, pages.arena));
  const lifecycle = new Lifecycle();
  const lines: string[] = [];
  /** 'close' listeners on each response the lane answered, once it had answered. */
  const closeListeners: number[] = [];
  let reachedApp = 0;
  const app = new Koa();
  app.use((ctx) => {
    reachedApp++;
    const stored = pages.get(ctx.path);
    if (!stored) return;
    ctx.set('X-Request-Id', 'from-the-app-0001');
    if (ctx.get('X-Forwarded-Proto') === 'https') ctx.set('Strict-Transport-Security', 'max-age=1');
    ctx.status = 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=0');
    const encoding = negotiateEncoding(ctx);
    sendStored(ctx, stored, encoding);
    rememberAnswer(ctx, ctx.path, stored, encoding);
  });
  const toApp = app.callback();
  const lane = cachedAnswers({ rendered: pages, lifecycle, log: createLogger((line) => lines.push(line), logLevel), trustProxy });
  const server = createServer((req, res) => {
    if (lane(req, res)) closeListeners.push(res.listenerCount('close'));
    else toApp(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    lifecycle,
    lines,
    closeListeners,
    /** Asks, and says whether the app was reached. */
    async reaches(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<boolean> {
      const before = reachedApp;
      await ask(base, path, headers, method);
      return reachedApp > before;
    },
    close: () => server.close(),
  };
}
const PAGE = '/en/page';
const HTML = Buffer.from('<!DOCTYPE html><p>kept</p>');

describe('cached answers', () => {
  let lane: Awaited<ReturnType<typeof laneBeforeApp>>;
  before(async () => {
    lane = await laneBeforeApp();
  });
  after(() => lane.close());

  test("the first answer in each encoding is the app's; the next are the lane's, with the same headers and bytes", async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const headers = { 'Accept-Encoding': encoding };
      const first = await ask(lane.base, PAGE, headers);
      assert.equal(await lane.reaches(PAGE, headers), false, `${encoding}: answered without the app`);
      const again = await ask(lane.base, PAGE, headers);
      assert.deepEqual(pageHeaders(again), pageHeaders(first));
      assert.ok(again.body.equals(first.body));
    }
  });

  test('each answer has its own request id (a well-formed one is kept) and its own access log line', async () => {
    await ask(lane.base, PAGE);
    const before = lane.lines.length;
    const kept = await ask(lane.base, PAGE, { 'X-Request-Id': 'visitor-chosen-id-42' });
    const made = await ask(lane.base, PAGE, { 'X-Request-Id': 'bad id <script>' });
    assert.equal(kept.headers['x-request-id'], 'visitor-chosen-id-42');
    assert.match(String(made.headers['x-request-id']), /^[\w-]{36}$/);
    await waitFor(() => lane.lines.length >= before + 2);
    const logged = lane.lines.slice(before).map((line) => JSON.parse(line));
    for (const line of logged) {
      assert.ok(line.bytes > HTML.length && line.bytes < HTML.length + 2000, 'the bytes of the whole answer, headers included');
      assert.ok(typeof line.ms === 'number' && line.ms >= 0);
      assert.equal(line.agent, 'other');
      assert.equal(line.aborted, undefined, 'answered whole');
    }
    assert.deepEqual(
      logged.map(({ msg, id, method, path, status }) => ({ msg, id, method, path, status })),
      [
        { msg: 'request', id: 'visitor-chosen-id-42', method: 'GET', path: PAGE, status: 200 },
        { msg: 'request', id: made.headers['x-request-id'], method: 'GET', path: PAGE, status: 200 },
      ],
    );
  });

  test("an answer the socket took whole is not counted in flight, and has no 'close' listener", async () => {
    await ask(lane.base, PAGE);
    await ask(lane.base, PAGE);
    assert.equal(lane.closeListeners.at(-1), 0);
    assert.equal(lane.lifecycle.inFlight, 0);
  });

  test('below the info level, an answer logs nothing and listens for nothing', async () => {
    const quiet = await laneBeforeApp({ logLevel: 'warn' });
    try {
      await ask(quiet.base, PAGE);
      const answer = await ask(quiet.base, PAGE, { 'X-Request-Id': 'visitor-chosen-id-43' });
      assert.equal(answer.headers['x-request-id'], 'visitor-chosen-id-43', 'the request id is still sent');
      await ask(lane.base, PAGE);
      assert.deepEqual(
        quiet.closeListeners.slice(-1),
        lane.closeListeners.slice(-1),
        "as many 'close' listeners as at info, where the line is written at once",
      );
      assert.equal(quiet.lifecycle.inFlight, 0);
      assert.deepEqual(quiet.lines, []);
    } finally {
      quiet.close();
    }
  });

  test('HEAD, POST, conditional requests, a query, another spelling and other paths go to the app', async () => {
    await ask(lane.base, PAGE);
    assert.equal(await lane.reaches(PAGE), false, "the plain GET is the lane's");
    assert.equal(await lane.reaches(PAGE, {}, 'HEAD'), true);
    assert.equal(await lane.reaches(PAGE, {}, 'POST'), true);
    assert.equal(await lane.reaches(PAGE, { 'If-None-Match': '"x"' }), true);
    assert.equal(await lane.reaches(PAGE, { 'If-Modified-Since': 'Tue, 24 Nov 2026 00:00:00 GMT' }), true);
    assert.equal(await lane.reaches(`${PAGE}?utm=1`), true);
    assert.equal(await lane.reaches(`${PAGE}/`), true);
    assert.equal(await lane.reaches('/en/PAGE'), true);
    assert.equal(await lane.reaches('/en/other'), true);
  });
});

test('an answer larger than the socket takes at once is in flight until the reader has it all', async () => {
  // 16 MB: more than loopback socket buffers hold while the client is not reading.
  const big = Buffer.concat([Buffer.from('<!DOCTYPE html><p>'), Buffer.alloc(16 * 1024 * 1024, 'a'), Buffer.from('THE END</p>')]);
  const lane = await laneBeforeApp({ html: big });
  try {
    await ask(lane.base, PAGE);
    assert.equal(lane.lifecycle.inFlight, 0);
    const url = new URL(lane.base);
    const { whileUnread, length } = await new Promise<{ whileUnread: number[]; length: number }>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: PAGE }, (res) => {
        res.pause();
        setTimeout(() => {
          // The lane's answers so far, and what is in flight, while the client reads nothing.
          const whileUnread = [lane.closeListeners.length, lane.lifecycle.inFlight];
          let length = 0;
          res.on('data', (chunk: Buffer) => {
            length += chunk.length;
          });
          res.on('end', () => resolve({ whileUnread, length }));
          res.resume();
        }, 200);
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(whileUnread, [1, 1], 'answered by the lane, and in flight while it is not all written');
    assert.equal(length, big.length);
    await waitFor(() => lane.lifecycle.inFlight === 0);
  } finally {
    lane.close();
  }
});

test('a form of the page not sent once yet goes to the app', async () => {
  const lane = await laneBeforeApp();
  try {
    await ask(lane.base, PAGE, { 'Accept-Encoding': 'br' });
    assert.equal(await lane.reaches(PAGE, { 'Accept-Encoding': 'br' }), false);
    assert.equal(await lane.reaches(PAGE, { 'Accept-Encoding': 'gzip' }), true, 'gzip was never sent');
  } finally {
    lane.close();
  }
});

test('while draining, every request goes to the app (which closes the connection)', async () => {
  const lane = await laneBeforeApp();
  try {
    await ask(lane.base, PAGE);
    assert.equal(await lane.reaches(PAGE), false);
    lane.lifecycle.drain();
    assert.equal(await lane.reaches(PAGE), true);
  } finally {
    lane.close();
  }
});

test('HSTS is decided per request: with a trusted proxy, only an https request gets it', async () => {
  const lane = await laneBeforeApp({ trustProxy: 1 });
  try {
    await ask(lane.base, PAGE, { 'X-Forwarded-Proto': 'https' });
    const https = await ask(lane.base, PAGE, { 'X-Forwarded-Proto': 'https' });
    const http = await ask(lane.base, PAGE, { 'X-Forwarded-Proto': 'http' });
    assert.match(String(https.headers['strict-transport-security']), /max-age=31536000/);
    assert.equal(http.headers['strict-transport-security'], undefined);
    assert.equal(await lane.reaches(PAGE, { 'X-Forwarded-Proto': 'http' }), false, 'both from the lane');
  } finally {
    lane.close();
  }
});
