import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchRoute } from '../../src/routes/match.ts';

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
];

for (const [slug, route] of cases) {
  test(`slug "${slug}" shows the ${route} screen`, () => {
    assert.equal(matchRoute(slug), route);
  });
}
