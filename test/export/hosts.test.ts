import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { headersFile } from '../../src/export/hosts/headers-file.ts';
import { nginxHttpConf, nginxServerConf } from '../../src/export/hosts/nginx.ts';
import { miscased, redirectsFile } from '../../src/export/hosts/redirects-file.ts';
import { hostTables } from '../../src/export/hosts/tables.ts';
import { cachePolicy } from '../../src/server/http/cache-policy.ts';
import { loadConfig } from '../../src/server/config.ts';
import { ALWAYS_HEADERS, HTTPS_ONLY_HEADER } from '../../src/server/http/security-headers.ts';
import { headersFor, parseHeadersFile } from '../helpers/static-host.ts';

/**
 * The host configurations `npm run export` writes agree with the server's own
 * tables: every security header on every path, and each kind of path's cache
 * policy (test/export/export.test.ts also compares them with the running server).
 */
const tablesFor = (env: Record<string, string> = {}, relay: string | null = null) =>
  hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test', ...env }), { relay });

const tables = tablesFor();
const policy = cachePolicy(300);
const locales = ['en', 'ar', 'de', 'fr', 'ja'];
const security = [...ALWAYS_HEADERS, HTTPS_ONLY_HEADER];

/** Paths of each kind and the Cache-Control the server gives them. */
const kinds: [string, string][] = [
  ['/en', policy.page],
  ['/de/docs/guides/install', policy.page],
  ['/ja/%E6%A6%82%E8%A6%81', policy.page],
  ['/_data/b1/fr/docs.json', policy.page],
  ['/assets/messages-ar-ABC.json', policy.asset],
  ['/assets/main-ABC.js', policy.asset],
  ['/assets/search-en-ABC.json', policy.asset],
  ['/sitemap.xml', policy.page],
  ['/robots.txt', policy.page],
  ['/404.html', policy.notFound],
];

describe('_headers (Netlify, Cloudflare Pages)', () => {
  const rules = parseHeadersFile(headersFile(tables));
  for (const [path, cacheControl] of kinds) {
    test(`${path}: every security header of the server and its cache policy, each once`, () => {
      const headers = headersFor(rules, path);
      for (const [name, value] of security)
        assert.deepEqual(
          headers.filter(([n]) => n === name),
          [[name, value]],
          name,
        );
      assert.deepEqual(
        headers.filter(([name]) => name === 'Cache-Control'),
        [['Cache-Control', cacheControl]],
      );
      // The sitemap's type too: hosts would call it text/xml by its extension.
      assert.equal(headers.length, security.length + (path === '/sitemap.xml' ? 2 : 1), 'nothing else');
    });
  }

  test('a feed is served as application/atom+xml, as the server does, with the page policy and the security headers', () => {
    const withFeeds = hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test' }), {
      relay: null,
      feeds: ['/de/blog/feed.xml', '/ja/%E3%83%96%E3%83%AD%E3%82%B0/feed.xml'],
    });
    const rules = parseHeadersFile(headersFile(withFeeds));
    for (const path of ['/de/blog/feed.xml', '/ja/ブログ/feed.xml']) {
      const headers = headersFor(rules, path);
      assert.deepEqual(
        headers.filter(([name]) => name === 'Content-Type'),
        [['Content-Type', 'application/atom+xml; charset=utf-8']],
        path,
      );
      assert.deepEqual(
        headers.filter(([name]) => name === 'Cache-Control'),
        [['Cache-Control', policy.page]],
      );
      for (const [name] of security)
        assert.ok(
          headers.some(([n]) => n === name),
          name,
        );
    }
    const nginx = nginxServerConf(withFeeds);
    assert.match(nginx, /location = "\/ja\/ブログ\/feed\.xml" \{[^}]*types \{ \}\s*default_type application\/atom\+xml;/);
  });

  test('HSTS only when PUBLIC_URL is https, as the server sends it only over https', () => {
    const plain = parseHeadersFile(headersFile(tablesFor({ PUBLIC_URL: 'http://example.test' })));
    assert.equal(
      headersFor(plain, '/en').some(([name]) => name === HTTPS_ONLY_HEADER[0]),
      false,
    );
  });

  test('PAGE_MAX_AGE flows from the configuration, as it does into the server', () => {
    const rules = parseHeadersFile(headersFile(tablesFor({ PAGE_MAX_AGE: '0' })));
    assert.deepEqual(
      headersFor(rules, '/en/docs').filter(([name]) => name === 'Cache-Control'),
      [['Cache-Control', 'public, max-age=0']],
    );
  });
});

describe('nginx (test/export/nginx.test.ts runs it against the server)', () => {
  const relayed = tablesFor({ MONITORING_PATH: '/ingest' }, 'https://relay.example.test');

  test('the relay location inherits none of the server-level headers: the relay sends its own, once', () => {
    const conf = nginxServerConf(relayed);
    const block = /\n {4}location = \/ingest \{\n((?: {8}.*\n)*) {4}\}/.exec(conf)?.[1];
    assert.ok(block, 'a location for the relay');
    assert.match(block, /^ {8}proxy_pass https:\/\/relay\.example\.test;$/m);
    assert.match(block, /client_max_body_size 5242880;/);
    // One add_header (with no value: it sends nothing) keeps every server-level one out.
    assert.deepEqual(
      block.split('\n').filter((line) => line.includes('add_header')),
      ['        add_header X-Polysite-Relay "" always;'],
    );
    assert.ok(
      conf.split('\n').some((line) => line.startsWith('    add_header Content-Security-Policy ')),
      'server-level headers',
    );
  });

  test('without a relay, the monitoring path is a 404 and no address is written', () => {
    const conf = nginxServerConf(tables);
    assert.match(conf, /location = \/monitoring \{\n(?: {8}add_header .*\n)+ {8}return 404;/);
    assert.doesNotMatch(conf, /proxy_pass|127\.0\.0\.1/);
  });

  test('HSTS goes out over https only, as the server sends it; a TLS server block gets it from the scheme', () => {
    const http = nginxHttpConf(tables);
    assert.match(http, /map \$scheme \$polysite_hsts \{\n {4}default "";\n {4}https "max-age=31536000; includeSubDomains";\n\}/);
    assert.match(nginxServerConf(tables), /^ {4}add_header Strict-Transport-Security \$polysite_hsts always;$/m);
  });

  test("nginx's own errors are no-store: Cache-Control follows the status", () => {
    const http = nginxHttpConf(tables);
    assert.match(http, /map \$status \$polysite_cache \{\n {4}default "no-store";/);
    assert.match(nginxServerConf(tables), /^ {4}add_header Cache-Control \$polysite_cache always;$/m);
  });

  test("neither file sets what is the operator's: root, listen, server_name", () => {
    for (const text of [nginxHttpConf(relayed), nginxServerConf(relayed)]) assert.doesNotMatch(text, /^\s*(root|listen|server_name)\s/m);
  });
});

describe('_redirects (Netlify)', () => {
  const lines = redirectsFile(tables)
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));

  test('every rule is `from to status [condition]`', () => {
    for (const rule of lines) {
      assert.ok(rule.length === 3 || rule.length === 4, rule.join(' '));
      assert.match(rule[0]!, /^\//);
      assert.match(rule[2]!, /^(200|301|302|404)!?$/);
    }
  });

  test("/ goes to a chosen locale's chooser first, then by language, for every locale", () => {
    assert.deepEqual(lines[0], ['/', '/index.html', '200!', 'Cookie=locale']);
    for (const locale of locales)
      assert.ok(
        lines.some((rule) => rule.join(' ') === `/ /${locale} 302! Language=${locale}`),
        locale,
      );
  });

  test("a missing page under a locale gets that locale's not-found page", () => {
    for (const locale of locales)
      assert.ok(
        lines.some((rule) => rule.join(' ') === `/${locale}/* /${locale}/404.html 404`),
        locale,
      );
  });

  test('miscased locale prefixes go to the canonical one; the canonical one is never a source', () => {
    assert.deepEqual(miscased('en'), ['EN', 'En']);
    assert.deepEqual(miscased('pt-BR'), ['PT-BR', 'pt-br', 'Pt-br']);
    assert.ok(lines.some((rule) => rule.join(' ') === '/EN/* /en/:splat 301'));
    assert.ok(!lines.some((rule) => rule[0] === '/en' || (rule[0] === '/en/*' && rule[2] !== '404')));
  });

  test('the relay rule only with --relay, forced, same-origin path to the relay', () => {
    // Without it, a 404, as on a server without SENTRY_DSN.
    assert.deepEqual(
      lines.filter((rule) => rule[0] === '/monitoring'),
      [['/monitoring', '/404.html', '404']],
    );
    const relayed = redirectsFile(tablesFor({}, 'https://relay.example.test'));
    assert.match(relayed, /^\/monitoring {2}https:\/\/relay\.example\.test\/monitoring {2}200!$/m);
  });
});

describe('pages moved to a localized path', () => {
  const moved = [
    { from: '/de/about', to: '/de/ueber-uns' },
    { from: '/ja/about', to: '/ja/%E6%A6%82%E8%A6%81' },
  ];
  const withMoved = hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test' }), { relay: null, moved });

  test('_redirects sends the default path to the localized one, before the locale 404 rules', () => {
    const file = redirectsFile(withMoved);
    assert.ok(file.includes('/de/about  /de/ueber-uns  301\n'));
    assert.ok(file.includes('/ja/about  /ja/%E6%A6%82%E8%A6%81  301\n'));
    assert.ok(file.indexOf('/de/about  ') < file.indexOf('/de/*  /de/404.html  404'));
  });

  test('nginx.conf maps the default path to the localized one (decoded key, canonical value)', () => {
    const http = nginxHttpConf(withMoved);
    assert.ok(http.includes('    "/de/about" "/de/ueber-uns /de/about";\n'));
    assert.ok(http.includes('    "/ja/about" "/ja/%E6%A6%82%E8%A6%81 /ja/about";\n'));
  });
});
