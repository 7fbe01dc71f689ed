import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ScoredResult, categoryScore, exemptionNotes } from '../../scripts/bench/lighthouse-exemptions.ts';

const URL_404 = 'http://127.0.0.1:4000/en/no-such-page';

/** A Lighthouse result of one category whose audits score as given (weight 1 each). */
function result(
  category: string,
  audits: Record<string, number>,
  consoleErrors: ScoredResult['audits'][string]['details'] = {},
): ScoredResult {
  const ids = Object.keys(audits);
  const score = ids.reduce((sum, id) => sum + audits[id]!, 0) / ids.length;
  return {
    categories: { [category]: { score, auditRefs: ids.map((id) => ({ id, weight: 1 })) } },
    audits: Object.fromEntries(
      ids.map((id) => [id, { score: audits[id]!, details: id === 'errors-in-console' ? consoleErrors : undefined }]),
    ),
  };
}

const ownNotFound = {
  source: 'network',
  description: 'Failed to load resource: the server responded with a status of 404 (Not Found)',
  sourceLocation: { url: URL_404 },
};

test("a not-found page's SEO is scored without the audits a 404 fails by design, and marked", () => {
  const lhr = result('seo', { 'is-crawlable': 0, 'http-status-code': 0, 'meta-description': 1, 'document-title': 1 });
  assert.deepEqual(categoryScore(lhr, 'seo', '404', URL_404), { score: 100, exempt: true });
  assert.deepEqual(categoryScore(lhr, 'seo', 'home', URL_404), { score: 50, exempt: false });
});

test("a not-found page's other SEO failures still count", () => {
  const lhr = result('seo', { 'is-crawlable': 0, 'http-status-code': 0, 'meta-description': 0, 'document-title': 1 });
  assert.deepEqual(categoryScore(lhr, 'seo', '404', URL_404), { score: 50, exempt: true });
});

test("the console error of a not-found page's own 404 is exempt, and no other console error", () => {
  const own = result('best-practices', { 'errors-in-console': 0, 'is-on-https': 1 }, { items: [ownNotFound] });
  assert.deepEqual(categoryScore(own, 'best-practices', '404', URL_404), { score: 100, exempt: true });
  const other = result(
    'best-practices',
    { 'errors-in-console': 0, 'is-on-https': 1 },
    {
      items: [ownNotFound, { source: 'javascript', description: 'TypeError: x is undefined', sourceLocation: { url: `${URL_404}.js` } }],
    },
  );
  assert.deepEqual(categoryScore(other, 'best-practices', '404', URL_404), { score: 50, exempt: false });
});

test("a search results page is exempt from SEO's indexing audit only", () => {
  const lhr = result('seo', { 'is-crawlable': 0, 'http-status-code': 1 });
  assert.deepEqual(categoryScore(lhr, 'seo', 'search', URL_404), { score: 100, exempt: true });
  assert.deepEqual(categoryScore(result('seo', { 'is-crawlable': 1 }), 'seo', 'search', URL_404), { score: 100, exempt: false });
});

test('each exemption used gets one note saying why', () => {
  const notes = exemptionNotes(['404 seo', 'search seo']);
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /^\* 404, seo: without is-crawlable, http-status-code: .*404.*noindex/);
  assert.match(notes[1]!, /^\* search, seo: without is-crawlable: .*noindex/);
});
