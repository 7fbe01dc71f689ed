import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexLocales } from '../../src/i18n/locales.ts';
import { MAX_PATH_LENGTH, pagePath, parseLocation, type LocationDecision } from '../../src/routes/location.ts';

const locales = indexLocales(['en', 'de', 'fr', 'ja', 'ar', 'pt-BR']);

const cases: [path: string, search: string, expected: LocationDecision][] = [
  ['/en', '', { kind: 'page', locale: 'en', slug: '' }],
  ['/de/docs', '', { kind: 'page', locale: 'de', slug: 'docs' }],
  ['/de/docs/guides/install', '', { kind: 'page', locale: 'de', slug: 'docs/guides/install' }],
  ['/pt-BR/blog', '', { kind: 'page', locale: 'pt-BR', slug: 'blog' }],
  ['/fr/caf%C3%A9', '', { kind: 'page', locale: 'fr', slug: 'café' }],
  ['/DE/docs/', '?a=1', { kind: 'redirect', status: 308, location: '/de/docs?a=1' }],
  ['/de//docs', '', { kind: 'redirect', status: 308, location: '/de/docs' }],
  ['/de/', '', { kind: 'redirect', status: 308, location: '/de' }],
  ['/DE/<b>"x y"/', '?q=<i>', { kind: 'redirect', status: 308, location: '/de/%3Cb%3E%22x%20y%22?q=%3Ci%3E' }],
  ['/EN/caf%C3%A9', '?a=%3C', { kind: 'redirect', status: 308, location: '/en/caf%C3%A9?a=%3C' }],
  ['/pt-br/x', '', { kind: 'redirect', status: 308, location: '/pt-BR/x' }],
  ['/', '', { kind: 'negotiate', rest: '', slug: '', query: '' }],
  ['/about', '', { kind: 'negotiate', rest: '/about', slug: 'about', query: '' }],
  ['/about', '?ref=news&x=1', { kind: 'negotiate', rest: '/about?ref=news&x=1', slug: 'about', query: '?ref=news&x=1' }],
  ['/xx/<b>', '?q="<i>"', { kind: 'negotiate', rest: '/xx/%3Cb%3E?q=%22%3Ci%3E%22', slug: 'xx/<b>', query: '?q=%22%3Ci%3E%22' }],
  ['/xx/y', '', { kind: 'negotiate', rest: '/xx/y', slug: 'xx/y', query: '' }],
  ['/%E6%A6%82%E8%A6%81', '', { kind: 'negotiate', rest: '/%E6%A6%82%E8%A6%81', slug: '概要', query: '' }],
  ['//evil.example/x', '', { kind: 'negotiate', rest: '/evil.example/x', slug: 'evil.example/x', query: '' }],
  ['/en/%E0%A4%A', '', { kind: 'reject', status: 400, reason: 'Malformed percent-encoding' }],
  ['/%', '', { kind: 'reject', status: 400, reason: 'Malformed percent-encoding' }],
  ['/en/..', '', { kind: 'reject', status: 400, reason: 'Dot segment in path' }],
  ['/en/%2e%2e/secret', '', { kind: 'reject', status: 400, reason: 'Dot segment in path' }],
  ['/en/a%2F..%2Fb', '', { kind: 'reject', status: 400, reason: 'Forbidden character in path' }],
  ['/en/a%00b', '', { kind: 'reject', status: 400, reason: 'Forbidden character in path' }],
  ['/\\evil.example', '', { kind: 'reject', status: 400, reason: 'Forbidden character in path' }],
  ['/en/%5Cevil', '', { kind: 'reject', status: 400, reason: 'Forbidden character in path' }],
  [`/en/${'a'.repeat(MAX_PATH_LENGTH)}`, '', { kind: 'reject', status: 414, reason: 'URI too long' }],
  ['en', '', { kind: 'reject', status: 400, reason: 'Bad path' }],
];

for (const [path, search, expected] of cases) {
  test(`parseLocation(${JSON.stringify(path.slice(0, 40))}${search}) is a ${expected.kind}`, () => {
    assert.deepEqual(parseLocation(path, search, locales), expected);
  });
}

test('a path that tries to leave the origin is refused or redirected to a path on it', () => {
  const cases: [path: string, kind: LocationDecision['kind'], location?: string][] = [
    ['/EN//\t/x', 'reject'],
    ['/DE//evil.com/', 'redirect', '/de/evil.com'],
    ['//evil.com/en', 'negotiate'],
    ['/Ja///', 'redirect', '/ja'],
    ['/AR/%2F%2Fx', 'reject'],
    ['/en/..%2F..%2Fevil.com', 'reject'],
  ];
  for (const [path, kind, location] of cases) {
    const decision = parseLocation(path, '', locales);
    assert.equal(decision.kind, kind, JSON.stringify(path));
    if (decision.kind === 'redirect') {
      assert.equal(decision.location, location);
      assert.ok(!decision.location.startsWith('//'));
    }
    if (decision.kind === 'negotiate') assert.match(decision.rest, /^\/(?!\/)/, 'the rest cannot make a protocol-relative URL');
  }
});

test('pagePath encodes each slug segment and leaves the home bare', () => {
  assert.equal(pagePath('de', ''), '/de');
  assert.equal(pagePath('fr', 'blog/café'), '/fr/blog/caf%C3%A9');
});
