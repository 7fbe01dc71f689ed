import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listingPagePath, matchListingPage, matchRoute } from '../../src/routes/match.ts';

const cases: [slug: string, route: string | null][] = [
  ['', 'home'],
  ['docs', 'docs'],
  ['docs/routing', 'docs'],
  ['docs/deploy/heroku', 'docs'],
  ['blog', 'blog-index'],
  ['blog/introducing-polysite', 'blog-post'],
  ['blog/2026/too-deep', 'article'],
  ['about', 'article'],
  ['docsy', 'article'],
  // Segments, not characters: a prefix is a whole segment, and an empty segment is one.
  ['docs/', 'docs'],
  ['blog/', 'blog-post'],
  ['blog//x', 'article'],
  ['blogs/x', 'article'],
  ['/', 'article'],
];

for (const [slug, route] of cases) {
  test(`slug "${slug}" shows the ${route} screen`, () => {
    assert.equal(matchRoute(slug), route);
  });
}

const listingCases: [slug: string, expected: ReturnType<typeof matchListingPage>][] = [
  ['docs/big/~/2', { section: 'docs/big', number: 2 }],
  ['docs/1.0/gross/~/999999', { section: 'docs/1.0/gross', number: 999999 }],
  ['docs/big/~/1', { section: 'docs/big', number: 1 }],
  ['docs/big/~/0', { section: 'docs/big', number: null }],
  ['docs/big/~/02', { section: 'docs/big', number: null }],
  ['docs/big/~/1000000', { section: 'docs/big', number: null }],
  ['docs/big/~/2/3', { section: 'docs/big', number: null }],
  ['docs/big/~/-1', { section: 'docs/big', number: null }],
  ['docs/big/~/', { section: 'docs/big', number: null }],
  ['docs/big/~', null],
  ['~/2', null],
  ['docs/big', null],
  ['docs/big~/2', null],
];

for (const [slug, expected] of listingCases) {
  test(`slug "${slug}" ${expected === null ? 'names no listing page' : `names page ${expected.number} of ${expected.section}'s listing`}`, () => {
    assert.deepEqual(matchListingPage(slug), expected);
  });
}

test("a listing's page 1 is its section's own path; the others are under ~", () => {
  assert.equal(listingPagePath('/de/docs/gross', 1), '/de/docs/gross');
  assert.equal(listingPagePath('/de/docs/gross', 2), '/de/docs/gross/~/2');
});
