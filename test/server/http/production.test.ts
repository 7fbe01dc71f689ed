import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { get, rawRequest } from '../../helpers/http.ts';
import { waitFor } from '../../helpers/wait.ts';
import { startServer, type RunningServer } from '../../helpers/server.ts';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'node:http';

/** Caching, compression, security headers, proxy trust and logs, over HTTP against the built server. */
let server: RunningServer;
before(async () => {
  server = await startServer({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
});
after(async () => {
  await server.stop();
});

/** GET returning the raw (still compressed) body bytes. */
function getRaw(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const weakly = (etag: string) => etag.replace(/^W\//, '');

async function dataPath(page: string): Promise<string> {
  const build = JSON.parse((await get(server.url, '/healthz')).body).build;
  return `/_data/${build}${page}.json`;
}

describe('HTTP caching', () => {
  test('a page answers If-None-Match with 304, twice in a row (render cache on)', async () => {
    const first = await get(server.url, '/de/docs/routing');
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[\w-]+"$/);
    for (let i = 0; i < 2; i++) {
      const again = await get(server.url, '/de/docs/routing', { 'If-None-Match': etag });
      assert.equal(again.status, 304);
      assert.equal(again.body, '');
    }
    assert.equal((await get(server.url, '/de/docs/routing', { 'If-None-Match': '"other"' })).status, 200);
  });

  test('page data has its own ETag and answers 304 too', async () => {
    const path = await dataPath('/en/about');
    const first = await get(server.url, path);
    assert.equal(first.status, 200);
    assert.equal((await get(server.url, path, { 'If-None-Match': first.headers.etag as string })).status, 304);
    assert.notEqual(first.headers.etag, (await get(server.url, '/en/about')).headers.etag);
  });

  test("a locale's messages are a content-hashed asset the page names and preloads, cached for a year; a changed name is a 404", async () => {
    const page = await get(server.url, '/de/docs/routing');
    const urls = JSON.parse(/id="polysite-data">([^<]*)</.exec(page.body)![1]!).messages as Record<string, string>;
    assert.deepEqual(Object.keys(urls).sort(), ['ar', 'de', 'en', 'fr', 'ja']);
    const url = urls.de!;
    assert.match(url, /^\/assets\/messages-de-[0-9A-F]{8}\.json$/);
    assert.ok(page.body.includes(`<link rel="preload" href="${url}" as="fetch" crossorigin>`), 'preloaded from the head');
    const first = await get(server.url, url);
    assert.equal(first.status, 200);
    assert.match(first.headers['content-type'] as string, /^application\/json/);
    assert.equal(first.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(JSON.parse(first.body).messages['nav.docs'][0].value, 'Doku', 'the compiled German messages');
    assert.notEqual(first.body, (await get(server.url, urls.fr!)).body);
    const brotli = await getRaw(url, { 'Accept-Encoding': 'br' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(brotli.body).toString(), first.body);
    // Another hash, another locale, another case (of the name: a hash may be all digits): not a file the server has.
    for (const other of [url.replace(/-[0-9A-F]{8}\./, '-00000000.'), url.replace('-de-', '-xx-'), url.replace('messages-', 'Messages-')])
      assert.equal((await get(server.url, other)).status, 404, other);
  });

  const kinds: [string, () => Promise<string>, Record<string, string>, RegExp, RegExp | null][] = [
    ['page', async () => '/en/docs', {}, /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/, /Accept-Encoding/],
    ['page data', () => dataPath('/en/docs'), {}, /^public, max-age=0, s-maxage=\d+/, /Accept-Encoding/],
    ['404 page', async () => '/en/nope', {}, /^public, max-age=0, s-maxage=60$/, /Accept-Encoding/],
    ['negotiated redirect', async () => '/', { 'Accept-Language': 'fr' }, /^private, no-cache$/, /Accept-Language, Cookie/],
    ['canonical redirect', async () => '/EN/docs/', {}, /^public, max-age=3600$/, null],
    ['health', async () => '/healthz', {}, /^no-store$/, null],
    ['sitemap', async () => '/sitemap.xml', {}, /^public/, /Accept-Encoding/],
    ['bad request', async () => '/%', {}, /^no-store$/, null],
  ];
  for (const [kind, path, headers, cacheControl, vary] of kinds) {
    test(`${kind}: Cache-Control and Vary`, async () => {
      const response = await get(server.url, await path(), headers);
      assert.match(response.headers['cache-control'] as string, cacheControl);
      if (vary) assert.match(response.headers.vary as string, vary);
      else assert.equal(response.headers.vary, undefined);
    });
  }

  test('each encoding has its own ETag, and a 304 says it varies by encoding', async () => {
    for (const path of ['/ja/docs/routing', await dataPath('/ja/docs/routing')]) {
      const tags = new Set<string>();
      for (const encoding of ['br', 'gzip', 'identity']) {
        const first = await getRaw(path, { 'Accept-Encoding': encoding });
        const etag = first.headers.etag as string;
        tags.add(etag);
        const again = await getRaw(path, { 'Accept-Encoding': encoding, 'If-None-Match': etag });
        assert.equal(again.status, 304, `${path} ${encoding}`);
        assert.match(again.headers.vary as string, /Accept-Encoding/);
        // The same tag, compared weakly: a streamed first answer's is weak, the stored form's strong.
        assert.equal(weakly(again.headers.etag as string), weakly(etag));
      }
      assert.equal(tags.size, 3, `${path}: br, gzip and plain bodies have distinct validators`);
      const brTag = [...tags].find((tag) => tag.endsWith('-br"'))!;
      assert.equal(
        (await getRaw(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': brTag })).status,
        200,
        'a br tag does not validate gzip',
      );
    }
  });

  test('one strong ETag names one byte sequence: the streamed first render and the cached repeat, byte for byte', async () => {
    // Each encoding on a page nobody asked for yet: its first answer is the streamed render.
    for (const [path, encoding] of [
      ['/de/docs/getting-started', 'br'],
      ['/fr/docs/getting-started', 'gzip'],
      ['/ar/docs/getting-started', 'identity'],
    ] as const) {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await getRaw(path, { 'Accept-Encoding': encoding }));
      const strong = new Map<string, Buffer>();
      for (const { headers, body } of answers) {
        const etag = headers.etag as string;
        assert.match(etag, /^(W\/)?"[\w-]+"$/);
        if (etag.startsWith('W/')) continue;
        const seen = strong.get(etag);
        if (seen) assert.ok(seen.equals(body), `${path} ${encoding}: two byte sequences under the strong ETag ${etag}`);
        strong.set(etag, body);
      }
      assert.equal(strong.size, 1, `${path} ${encoding}: the cached repeats carry one strong ETag`);
      // A weak tag still validates (If-None-Match compares weakly).
      const again = await getRaw(path, { 'Accept-Encoding': encoding, 'If-None-Match': answers[0]!.headers.etag as string });
      assert.equal(again.status, 304, `${path} ${encoding}`);
    }
  });

  test('the answer that renders a page or its data is compressed for itself alone; the next answers send the kept form, the same text', async () => {
    // Pages nobody asked for yet, in each encoding: their first answer makes the body.
    for (const [path, encoding] of [
      ['/fr/docs/markdown', 'br'],
      [await dataPath('/ja/docs/configuration'), 'br'],
      ['/ar/docs/configuration', 'gzip'],
    ] as const) {
      const decode = (body: Buffer) => (encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString();
      const made = await getRaw(path, { 'Accept-Encoding': encoding });
      const kept = await getRaw(path, { 'Accept-Encoding': encoding });
      const again = await getRaw(path, { 'Accept-Encoding': encoding });
      assert.equal(made.status, 200, path);
      assert.equal(made.headers['content-encoding'], encoding);
      assert.match(made.headers.etag as string, /^W\/"/, `${path}: the one-off bytes are not the kept form's, so their tag is weak`);
      assert.match(kept.headers.etag as string, /^"/, `${path}: the kept form has the strong tag`);
      assert.equal(weakly(made.headers.etag as string), kept.headers.etag);
      assert.ok(kept.body.equals(again.body), `${path}: the kept form is one byte sequence`);
      assert.equal(decode(made.body), decode(kept.body), `${path}: the same text`);
    }
  });

  test('HEAD on a page has the headers GET has, and no body', async () => {
    await get(server.url, '/fr/docs/routing'); // rendered once: the cached copy has a length
    const [head, full] = await Promise.all([
      getRaw('/fr/docs/routing', { 'Accept-Encoding': 'gzip' }, 'HEAD'),
      getRaw('/fr/docs/routing', { 'Accept-Encoding': 'gzip' }),
    ]);
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'cache-control', 'content-type']) {
      assert.equal(head.headers[name], full.headers[name], name);
    }
  });

  for (const [path, encoding] of [
    ['/de/docs/configuration', 'br'],
    ['/ar/docs/monitoring', 'identity'],
    ['/fr/no-such-page-yet', 'gzip'],
  ] as const) {
    test(`HEAD first, on ${path} not rendered yet (${encoding}), has the headers GET has, Content-Length included`, async () => {
      // No request has rendered this page before: HEAD comes first.
      const head = await getRaw(path, { 'Accept-Encoding': encoding }, 'HEAD');
      const full = await getRaw(path, { 'Accept-Encoding': encoding });
      assert.equal(head.status, full.status);
      assert.equal(head.body.length, 0);
      assert.ok(full.headers['content-length'], 'GET has a length');
      for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'cache-control', 'content-type', 'content-language']) {
        assert.equal(head.headers[name], full.headers[name], name);
      }
    });
  }

  test('hashed assets are cached for a year, immutable, and vary by encoding', async () => {
    const html = (await get(server.url, '/en')).body;
    const css = /href="(\/assets\/styles-[A-Z0-9]+\.css)"/.exec(html)![1]!;
    const response = await get(server.url, css, { 'Accept-Encoding': 'br' });
    assert.match(response.headers['cache-control'] as string, /max-age=31536000,\s*immutable/);
    assert.equal(response.headers['content-encoding'], 'br');
    assert.match(response.headers.vary as string, /Accept-Encoding/);
  });
});

describe('compression', () => {
  for (const [accept, encoding] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['identity', undefined],
    ['', undefined],
  ] as const) {
    test(`Accept-Encoding "${accept}" gets ${encoding ?? 'no compression'}, for a page and for page data`, async () => {
      for (const path of ['/ja/docs/content', await dataPath('/ja/docs/content')]) {
        const response = await getRaw(path, accept ? { 'Accept-Encoding': accept } : {});
        assert.equal(response.headers['content-encoding'], encoding);
        const text = (
          encoding === 'br' ? brotliDecompressSync(response.body) : encoding === 'gzip' ? gunzipSync(response.body) : response.body
        ).toString();
        assert.match(text, path.endsWith('.json') ? /^\{"page":/ : /^<!DOCTYPE html>/);
      }
    });
  }

  test('no acceptable encoding (identity;q=0, *;q=0) is a 406 for pages, page data, assets and the sitemap', async () => {
    const html = (await get(server.url, '/en')).body;
    const css = /href="(\/assets\/styles-[A-Z0-9]+\.css)"/.exec(html)![1]!;
    const messages = /href="(\/assets\/messages-[^"]+\.json)"/.exec(html)![1]!;
    const paths = ['/en', '/en/about', '/en/nope', await dataPath('/en/about'), css, messages, '/sitemap.xml', '/en/blog/feed.xml'];
    for (const accept of ['identity;q=0, *;q=0', '*;q=0', 'br;q=0, gzip;q=0, identity;q=0']) {
      for (const method of ['GET', 'HEAD']) {
        for (const path of paths) {
          const response = await getRaw(path, { 'Accept-Encoding': accept }, method);
          assert.equal(response.status, 406, `${method} ${path} with ${accept}`);
          assert.equal(response.headers['content-encoding'], undefined);
          assert.equal(response.headers['cache-control'], 'no-store');
        }
      }
    }
    // Refusing identity while accepting a coding we make is fine: that coding is sent.
    const gzipOnly = await getRaw('/en/about', { 'Accept-Encoding': 'gzip, identity;q=0' });
    assert.equal(gzipOnly.status, 200);
    assert.equal(gzipOnly.headers['content-encoding'], 'gzip');
  });

  test('a streamed first render and the cached repeat decode to the same document', async () => {
    const a = brotliDecompressSync((await getRaw('/fr/blog/translating-with-icu-messages', { 'Accept-Encoding': 'br' })).body).toString();
    const b = brotliDecompressSync((await getRaw('/fr/blog/translating-with-icu-messages', { 'Accept-Encoding': 'br' })).body).toString();
    assert.equal(a, b);
    assert.match(a, /<\/html>$/);
  });
});

describe('security headers', () => {
  for (const [kind, path] of [
    ['200', '/en'],
    ['404', '/en/nope'],
    ['redirect', '/'],
    ['400', '/%'],
    ['405', '/healthz?x'],
    ['asset 404', '/assets/nope.js'],
  ] as const) {
    test(`on a ${kind} response`, async () => {
      const response = await get(server.url, path, {}, kind === '405' ? 'DELETE' : 'GET');
      const csp = response.headers['content-security-policy'] as string;
      assert.ok(csp, 'has a CSP');
      // Same origin only: no hash, no inline script (the head's script is a file: pages/head-script.ts).
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(csp, /connect-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.ok(response.headers['referrer-policy']);
      assert.ok(response.headers['permissions-policy']);
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['strict-transport-security'], undefined, 'no HSTS over plain http');
    });
  }
});

describe('proxy headers are ignored without TRUST_PROXY', () => {
  test('X-Forwarded-Proto does not turn on HSTS, X-Forwarded-Host does not change printed URLs', async () => {
    const response = await get(server.url, '/en/docs', {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-For': '203.0.113.9',
    });
    assert.equal(response.headers['strict-transport-security'], undefined);
    assert.doesNotMatch(response.body, /evil\.example/);
  });

  test('with TRUST_PROXY=1, a forwarded https request gets HSTS', async () => {
    const proxied = await startServer({ TRUST_PROXY: '1' });
    try {
      const response = await get(proxied.url, '/en', { 'X-Forwarded-Proto': 'https' });
      assert.match(response.headers['strict-transport-security'] as string, /max-age=\d+/);
      assert.equal((await get(proxied.url, '/en')).headers['strict-transport-security'], undefined);
      // The proxy appended what it saw (http); the `https` before it came from the client.
      const spoofed = await get(proxied.url, '/en', { 'X-Forwarded-Proto': 'https, http' });
      assert.equal(spoofed.headers['strict-transport-security'], undefined);
    } finally {
      await proxied.stop();
    }
  });
});

describe('request ids and logs', () => {
  test('a well-formed X-Request-Id is kept, a bad one replaced', async () => {
    assert.equal((await get(server.url, '/en', { 'X-Request-Id': 'abc-12345-xyz' })).headers['x-request-id'], 'abc-12345-xyz');
    const replaced = (await get(server.url, '/en', { 'X-Request-Id': 'bad id <script>' })).headers['x-request-id'] as string;
    assert.match(replaced, /^[0-9a-f-]{36}$/);
  });

  test('error responses carry the request id too', async () => {
    for (const [path, method] of [
      ['/%', 'GET'],
      ['/en', 'DELETE'],
      ['/assets/nope.js', 'GET'],
      [`/en/${'a'.repeat(2000)}`, 'GET'],
    ] as const) {
      const response = await get(server.url, path, { 'X-Request-Id': 'trace-0001-abcd' }, method);
      assert.ok(response.status >= 400, path);
      assert.equal(response.headers['x-request-id'], 'trace-0001-abcd', `${method} ${path.slice(0, 20)}`);
    }
  });

  test('one JSON line per request with time, id, method, path, status, duration, bytes and agent class', async () => {
    await get(server.url, '/fr/a-propos?secret=1', {
      'X-Request-Id': 'log-check-0001',
      'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const line = server.lines.map((text) => JSON.parse(text)).find((entry) => entry.id === 'log-check-0001');
    assert.ok(line, 'the request was logged');
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/fr/a-propos');
    assert.equal(line.status, 200);
    assert.equal(line.agent, 'bot');
    assert.ok(line.bytes > 1000 && typeof line.ms === 'number' && !Number.isNaN(Date.parse(line.time)));
    assert.ok(!server.lines.some((text) => text.includes('secret=1')), 'query strings are not logged');
  });

  test('a path with quotes and backslashes is logged as one valid JSON line, with the path as sent', async () => {
    const socket = connect(server.port, '127.0.0.1');
    socket.write('GET /en/x"y\\z HTTP/1.1\r\nHost: x\r\nX-Request-Id: log-check-0002\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => socket.on('close', resolve).resume());
    await waitFor(() => server.lines.some((text) => text.includes('log-check-0002')));
    const text = server.lines.find((line) => line.includes('log-check-0002'))!;
    assert.match(text, /^\{[^\n]*\}$/);
    const line = JSON.parse(text);
    assert.equal(line.path, '/en/x"y\\z');
    assert.equal(line.status, 400);
  });
});

describe('limits', () => {
  test('a client that sends headers too slowly gets 408 with our headers, while others are served', async () => {
    const socket = connect(server.port, '127.0.0.1');
    socket.write('GET /en HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
    const closed = new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', () => {});
    });
    assert.equal((await get(server.url, '/en')).status, 200);
    const answer = await closed;
    clearInterval(drip);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /\r\ncontent-security-policy: default-src 'self'/i);
  });

  test('a client that sends a body too slowly is answered without waiting for it, while others are served', async () => {
    const socket = connect(server.port, '127.0.0.1');
    socket.write('POST /en HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nhello');
    const closed = new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', () => {});
    });
    assert.equal((await get(server.url, '/de')).status, 200);
    const answer = await closed;
    assert.match(answer, /^HTTP\/1\.1 (408|405) /);
  });

  // Requests Node's parser refuses before the app runs still look like ours.
  for (const [name, requestText, status] of [
    ['oversized headers', `GET /en HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, 431],
    ['more headers than the server keeps', `GET /en HTTP/1.1\r\nHost: x\r\n${'X-Junk: 1\r\n'.repeat(100)}\r\n`, 431],
    ['a control byte in the request line', 'GET /en/\u0001 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['an unknown method', 'BREW /en HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'an oversized chunk extension',
      `POST /en HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;${'a'.repeat(20_000)}\r\nhello\r\n0\r\n\r\n`,
      413,
    ],
  ] as const) {
    test(`${name} get ${status} with security headers, a request id and a log line`, async () => {
      const before = server.lines.length;
      const answer = await rawRequest(server.url, requestText);
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `));
      assert.match(answer, /\r\nx-content-type-options: nosniff/i);
      assert.match(answer, /\r\ncontent-security-policy: /i);
      const id = /\r\nx-request-id: ([\w-]+)/i.exec(answer)?.[1];
      assert.ok(id, 'has a request id');
      await waitFor(() => server.lines.slice(before).some((line) => line.includes(id!) && line.includes(`"status":${status}`)), {
        what: `the ${status} access log line`,
      });
      assert.equal((await get(server.url, '/en')).status, 200, 'still serving');
    });
  }

  test('a request with exactly as many headers as the server keeps (100) is served', async () => {
    assert.equal((await rawRequest(server.url, `GET /en HTTP/1.1\r\nHost: x\r\n${'X-Junk: 1\r\n'.repeat(99)}\r\n`)).split(' ')[1], '200');
  });
});

describe('fixed routes match exactly', () => {
  for (const path of ['/HEALTHZ', '/healthz/', '/Sitemap.xml']) {
    test(`${path} is not a fixed route`, async () => {
      const response = await get(server.url, path);
      assert.notEqual(response.status, 200);
      assert.doesNotMatch(response.body, /"build"|<urlset/);
    });
  }
});
