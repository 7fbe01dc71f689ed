import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { headersFile } from '../../src/export/hosts/headers-file.ts';
import { nginxConf } from '../../src/export/hosts/nginx.ts';
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
  hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test', ...env }), { relay, root: '/srv/site' });

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
      assert.equal(headers.length, security.length + 1, 'nothing else');
    });
  }

  test('a feed is served as application/atom+xml, as the server does, with the page policy and the security headers', () => {
    const withFeeds = hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test' }), {
      relay: null,
      root: '/srv/site',
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
    const nginx = nginxConf(withFeeds);
    assert.match(
      nginx,
      /location = "\/ja\/ブログ\/feed\.xml" \{[^}]*types \{ \}\s*default_type application\/atom\+xml;\s*charset_types application\/atom\+xml;/,
    );
    const de = nginx.slice(nginx.indexOf('location = "/de/blog/feed.xml" {'));
    assert.ok(de.slice(0, de.indexOf('types { }')).includes(`add_header Cache-Control "${policy.page}" always;`));
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

describe('nginx.conf', () => {
  const conf = nginxConf(tables);
  /** Each `location` and the add_header lines in it. */
  const locations = new Map(
    [...conf.matchAll(/^ {4}location ([^{]+) \{\n((?: {8}.*\n)*) {4}\}/gm)].map(([, where, body]) => [
      where!.trim(),
      [...body!.matchAll(/add_header (\S+) "((?:[^"\\]|\\.)*)" always;/g)].map(([, name, value]) => [name!, value!]),
    ]),
  );
  const expected: [string, string][] = [
    ['= /', policy.negotiated],
    ['/assets/', policy.asset],
    ['/_data/', policy.page],
    ['= /404.html', policy.notFound],
    ['/', policy.page],
    ...locales.flatMap((locale): [string, string][] => [
      [`/${locale}/`, policy.page],
      [`= /${locale}/404.html`, policy.notFound],
    ]),
  ];
  for (const [where, cacheControl] of expected) {
    test(`location ${where}: every security header of the server and its cache policy`, () => {
      const headers = locations.get(where);
      assert.ok(headers, `a location ${where}`);
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
    });
  }

  test("each locale's not-found page, its prefix in the canonical-case map, and its language for /", () => {
    for (const locale of locales) {
      assert.match(conf, new RegExp(`location /${locale}/ \\{[^}]*error_page 404 /${locale}/404\\.html;`));
      assert.match(conf, new RegExp(`"~\\*\\^/${locale}\\(\\?<polysite_rest_${locale}>`));
      assert.match(conf, new RegExp(`"~\\*\\^\\\\\\\\s\\*${locale}\\(\\?:\\[-_;,\\\\\\\\s\\]\\|\\$\\)" ${locale};`));
    }
    assert.match(conf, /map \$http_accept_language \$polysite_accept_locale \{\n {4}default en;/);
  });

  test('the relay: proxied with --relay, a commented example without', () => {
    assert.match(conf, /\n {4}#location = \/monitoring \{/);
    const relayed = nginxConf(tablesFor({ MONITORING_PATH: '/ingest' }, 'https://relay.example.test'));
    assert.match(relayed, /\n {4}location = \/ingest \{\n {8}proxy_pass https:\/\/relay\.example\.test;/);
    assert.match(relayed, /client_max_body_size 5242880;/);
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
    assert.ok(!lines.some((rule) => rule[0] === '/monitoring'));
    const relayed = redirectsFile(tablesFor({}, 'https://relay.example.test'));
    assert.match(relayed, /^\/monitoring {2}https:\/\/relay\.example\.test\/monitoring {2}200!$/m);
  });
});

describe('pages moved to a localized path', () => {
  const moved = [
    { from: '/de/about', to: '/de/ueber-uns' },
    { from: '/ja/about', to: '/ja/%E6%A6%82%E8%A6%81' },
  ];
  const withMoved = hostTables(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test' }), { relay: null, root: '/srv/site', moved });

  test('_redirects sends the default path to the localized one, before the locale 404 rules', () => {
    const file = redirectsFile(withMoved);
    assert.ok(file.includes('/de/about  /de/ueber-uns  301\n'));
    assert.ok(file.includes('/ja/about  /ja/%E6%A6%82%E8%A6%81  301\n'));
    assert.ok(file.indexOf('/de/about  ') < file.indexOf('/de/*  /de/404.html  404'));
  });

  test("nginx.conf answers them with the server's 308, query kept, its headers and the redirect policy", () => {
    const conf = nginxConf(withMoved);
    const block = /location = "\/de\/about" \{\n((?: {8}.*\n)*) {4}\}/.exec(conf)?.[1];
    assert.ok(block, 'a location for /de/about');
    assert.match(block, /return 308 "\/de\/ueber-uns\$is_args\$args";/);
    assert.ok(block.includes(`add_header Cache-Control "${policy.permanentRedirect}" always;`));
    for (const [name] of security) assert.ok(block.includes(`add_header ${name} `), name);
  });

  test('the canonical-form 308s nginx answers before choosing a location carry the headers too', () => {
    const server = nginxConf(withMoved).split('\n    if ($polysite_recased)')[0]!;
    const atServerLevel = server.split('\n').filter((line) => line.startsWith('    add_header '));
    assert.ok(atServerLevel.some((line) => line.includes(`Cache-Control "${policy.permanentRedirect}"`)));
    for (const [name] of security)
      assert.ok(
        atServerLevel.some((line) => line.startsWith(`    add_header ${name} `)),
        name,
      );
  });
});
