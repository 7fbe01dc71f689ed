import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/server/config.ts';
import type { PageDecision, PageRequest } from '../../../src/server/pages/decide.ts';
import { prepareSite } from '../../../src/server/site/prepare-site.ts';

// decide.ts over the default site, as a table: what a page request gets, as a value,
// before any HTTP. A page is summed up as its status, path and screen.

const { decide } = await prepareSite(loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test', LOG_LEVEL: 'silent' }));

type Summary =
  | { kind: 'page'; status: number; path: string; screen: string }
  | { kind: 'search'; locale: string; query: string }
  | { kind: 'redirect'; status: number; location: string; negotiated: boolean }
  | { kind: 'reject'; status: number };

function summary(decision: PageDecision): Summary {
  switch (decision.kind) {
    case 'page':
      return { kind: 'page', status: decision.page.status, path: decision.page.path, screen: decision.page.screen.kind };
    case 'reject':
      return { kind: 'reject', status: decision.status };
    default:
      return decision;
  }
}

const ask = (path: string, search = '', headers: { cookie?: string; acceptLanguage?: string } = {}): PageRequest => ({
  path,
  search,
  cookie: headers.cookie,
  acceptLanguage: headers.acceptLanguage,
});

const JA_OVERVIEW = '/ja/%E6%A6%82%E8%A6%81';

const cases: [name: string, request: PageRequest, expected: Summary][] = [
  ['a home page', ask('/de'), { kind: 'page', status: 200, path: '/de', screen: 'home' }],
  ['a page at its localized path', ask('/de/ueber-uns'), { kind: 'page', status: 200, path: '/de/ueber-uns', screen: 'article' }],
  [
    'a docs page under a localized folder',
    ask('/de/docs/anleitungen/installation'),
    { kind: 'page', status: 200, path: '/de/docs/anleitungen/installation', screen: 'docs' },
  ],
  [
    'a blog post',
    ask('/fr/blog/introducing-polysite'),
    { kind: 'page', status: 200, path: '/fr/blog/introducing-polysite', screen: 'blog-post' },
  ],
  ['a non-ASCII path, as the browser sends it', ask(JA_OVERVIEW), { kind: 'page', status: 200, path: JA_OVERVIEW, screen: 'article' }],
  [
    'the default locale’s path in a locale that localized it',
    ask('/de/about', '?ref=x'),
    { kind: 'redirect', status: 308, location: '/de/ueber-uns?ref=x', negotiated: false },
  ],
  [
    'the default path under a localized folder',
    ask('/de/docs/guides/install'),
    { kind: 'redirect', status: 308, location: '/de/docs/anleitungen/installation', negotiated: false },
  ],
  [
    'a wrong-case locale and a trailing slash on a default path: one hop to the page',
    ask('/DE/about/'),
    { kind: 'redirect', status: 308, location: '/de/ueber-uns', negotiated: false },
  ],
  [
    'another spelling of a percent-encoded path',
    ask(JA_OVERVIEW.toLowerCase().replace('/ja/', '/ja/')),
    { kind: 'redirect', status: 308, location: JA_OVERVIEW, negotiated: false },
  ],
  [
    '/ negotiated from Accept-Language',
    ask('/', '', { acceptLanguage: 'de-CH,de;q=0.9' }),
    { kind: 'redirect', status: 302, location: '/de', negotiated: true },
  ],
  [
    '/ negotiated from the cookie first',
    ask('/', '', { cookie: 'ar', acceptLanguage: 'de' }),
    { kind: 'redirect', status: 302, location: '/ar', negotiated: true },
  ],
  [
    'a path without a locale lands on the page’s path in the chosen locale',
    ask('/about', '?x=1', { acceptLanguage: 'de' }),
    { kind: 'redirect', status: 302, location: '/de/ueber-uns?x=1', negotiated: true },
  ],
  ['a search with a query', ask('/en/search', '?q=install'), { kind: 'search', locale: 'en', query: 'install' }],
  ['a search without a query', ask('/ja/search'), { kind: 'page', status: 200, path: '/ja/search', screen: 'search' }],
  ['a repeated query', ask('/en/search', '?q=a&q=b'), { kind: 'reject', status: 400 }],
  ['a page no locale has', ask('/fr/nope'), { kind: 'page', status: 404, path: '/fr/nope', screen: 'not-found' }],
  ['malformed percent-encoding', ask('/en/%E0%A4%A'), { kind: 'reject', status: 400 }],
  ['a dot segment', ask('/en/%2e%2e/secret'), { kind: 'reject', status: 400 }],
  ['a path over the limit', ask(`/en/${'a'.repeat(2000)}`), { kind: 'reject', status: 414 }],
];

for (const [name, request, expected] of cases) {
  test(`decide: ${name}`, () => {
    assert.deepEqual(summary(decide(request)), expected);
  });
}

test('decide: a page missing in a locale is the default locale’s, at the locale’s own path', () => {
  const decision = decide(ask('/ja/docs/deploy/docker'));
  assert.equal(decision.kind, 'page');
  if (decision.kind !== 'page') return;
  assert.equal(decision.page.status, 200);
  assert.equal(decision.page.path, '/ja/docs/deploy/docker');
  assert.equal(decision.page.fallback?.contentLocale, 'en');
});
