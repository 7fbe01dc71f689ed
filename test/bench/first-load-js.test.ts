import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { firstLoadJs } from '../../scripts/bench/first-load-js.ts';
import { FIRST_LOAD_JS_BUDGET } from '../../scripts/first-load-budget.ts';
import { get } from '../helpers/http.ts';
import { startServer } from '../helpers/server.ts';

const FILES: Record<string, string> = {
  '/classic.js': 'window.classic = true;'.repeat(20),
  '/entry.js': 'import { a } from "./dep.js";\nexport * from \'./reexport.js\';\nimport("./lazy.js");\nconsole.log(a);',
  '/dep.js': 'export const a = 1;'.repeat(10),
  '/reexport.js': 'export const b = 2;',
  '/preloaded.js': 'import"./dep.js";export const c=3;',
  '/lazy.js': 'export const later = true;',
  '/legacy.js': 'var legacy = true;',
};

const PAGE = `<!DOCTYPE html><html><head>
<script src="/classic.js"></script>
<script type="module">import "/entry.js";</script>
<link rel="modulepreload" href="/preloaded.js">
<script nomodule src="/legacy.js"></script>
<script type="application/json">{"import": "not a module"}</script>
</head><body><script src="/classic.js" async></script></body></html>`;

function serve() {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url!);
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    const body = FILES[req.url!];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  });
  return new Promise<{ url: string; requested: string[]; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requested, close: () => server.close() }),
    ),
  );
}

test('first-load JS counts scripts, modulepreloads and static imports once each, gzipped at level 9', async () => {
  const site = await serve();
  try {
    const result = await firstLoadJs(site.url);
    const expected = ['/classic.js', '/entry.js', '/preloaded.js', '/dep.js', '/reexport.js'];
    assert.deepEqual(result.files.map((file) => new URL(file.url).pathname).sort(), [...expected].sort());
    const gzipBytes = expected.reduce((sum, path) => sum + gzipSync(FILES[path]!, { level: 9 }).length, 0);
    assert.equal(result.gzipBytes, gzipBytes);
    assert.equal(site.requested.filter((path) => path === '/dep.js').length, 1);
  } finally {
    site.close();
  }
});

test('first-load JS leaves out nomodule scripts and dynamic imports, which a module browser does not load first', async () => {
  const site = await serve();
  try {
    await firstLoadJs(site.url);
    assert.ok(!site.requested.includes('/legacy.js'));
    assert.ok(!site.requested.includes('/lazy.js'));
  } finally {
    site.close();
  }
});

test('the served pages load at most the budget of JavaScript first, and no navigation, search, copy or monitoring code', async () => {
  const server = await startServer();
  try {
    for (const path of ['/en', '/en/docs/guides/install', '/ar/docs/guides/install', '/ja/search?q=install']) {
      const result = await firstLoadJs(server.url + path);
      assert.ok(
        result.gzipBytes <= FIRST_LOAD_JS_BUDGET,
        `${path}: ${result.gzipBytes} bytes gzip of first-load JavaScript, over ${FIRST_LOAD_JS_BUDGET}`,
      );
      const names = result.files.map((file) => new URL(file.url).pathname.split('/').pop()!);
      assert.ok(
        names.some((name) => name.startsWith('main-')),
        `${path}: the entry is counted`,
      );
      // Navigation, search, copy buttons and monitoring are the chunks the first load imports
      // dynamically (esbuild names every chunk by hash): none of them may be loaded first.
      const dynamic = new Set<string>();
      for (const file of result.files) {
        const code = (await get(server.url, new URL(file.url).pathname)).body;
        for (const [, target] of code.matchAll(/\bimport\("\.\/([^"]+\.js)"\)/g)) dynamic.add(target!);
      }
      assert.ok(dynamic.size >= 3, `${path}: the lazy chunks are found (${[...dynamic].join(', ')})`);
      const eager = names.filter((name) => dynamic.has(name));
      assert.deepEqual(eager, [], `${path}: loaded when needed, not first`);
    }
  } finally {
    await server.stop();
  }
});
