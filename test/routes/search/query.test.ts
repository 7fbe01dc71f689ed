import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl, pageDataKey, parseDataUrl } from '../../../src/routes/page-data.ts';
import { MAX_QUERY_LENGTH, parseSearchQuery, searchPath } from '../../../src/routes/search/query.ts';

describe('parseSearchQuery', () => {
  for (const [search, query] of [
    ['', ''],
    ['?', ''],
    ['?q=', ''],
    ['?q', ''],
    ['?q=docker', 'docker'],
    ['q=docker', 'docker'],
    ['?q=render+cache', 'render cache'],
    ['?q=a%2Bb', 'a+b'],
    ['?q=%C3%9Cberblick', 'Überblick'],
    ['?q=%E8%A8%AD%E5%AE%9A', '設定'],
    ['?q=++spaced++', 'spaced'],
    ['?x=1&q=found&y=2', 'found'],
    ['?Q=ignored', ''],
    ['?q=a%00b%0Ac', 'a b c'],
    [`?q=${'é'.repeat(MAX_QUERY_LENGTH)}`, 'é'.repeat(MAX_QUERY_LENGTH)],
    [`?q=${encodeURIComponent('😀'.repeat(MAX_QUERY_LENGTH))}`, '😀'.repeat(MAX_QUERY_LENGTH)],
  ] as const) {
    test(`${search.slice(0, 40) || '(none)'} -> "${query.slice(0, 20)}"`, () => {
      assert.deepEqual(parseSearchQuery(search), { kind: 'query', query });
    });
  }

  for (const [search, reason] of [
    ['?q=%E0%A4%A', /percent-encoding/],
    ['?q=%', /percent-encoding/],
    ['?q=%ED%A0%80', /percent-encoding/],
    ['?q=a&q=b', /Repeated/],
    ['?q=a&x=1&q=a', /Repeated/],
    [`?q=${'x'.repeat(MAX_QUERY_LENGTH + 1)}`, /longer than 256/],
    [`?q=${'%41'.repeat(MAX_QUERY_LENGTH + 1)}`, /longer than 256/],
    [`?q=${'x'.repeat(100_000)}`, /longer than 256/],
  ] as const) {
    test(`${search.slice(0, 40)} is refused with a 400`, () => {
      const decision = parseSearchQuery(search);
      assert.equal(decision.kind, 'reject');
      assert.equal(decision.kind === 'reject' && decision.status, 400);
      assert.match(decision.kind === 'reject' ? decision.reason : '', reason);
    });
  }
});

describe('the search page URL and its page data', () => {
  test('searchPath writes the query encoded, and nothing for an empty one', () => {
    assert.equal(searchPath('en', 'a b&c'), '/en/search?q=a%20b%26c');
    assert.equal(searchPath('ja', ''), '/ja/search');
  });

  test('a search page is keyed with its query; any other page by its path alone', () => {
    assert.equal(pageDataKey({ pathname: '/en/search', search: '?q=render+cache&utm=x' }), '/en/search?q=render%20cache');
    assert.equal(pageDataKey({ pathname: '/en/search', search: '' }), '/en/search');
    assert.equal(pageDataKey({ pathname: '/en/docs', search: '?q=x' }), '/en/docs');
    assert.equal(pageDataKey({ pathname: '/en/docs/search', search: '?q=x' }), '/en/docs/search');
    // What the server refuses is passed on as it is, for the server to refuse.
    assert.equal(pageDataKey({ pathname: '/en/search', search: '?q=a&q=b' }), '/en/search?q=a&q=b');
  });

  test('the query of a search page goes after the .json of its data URL, which still parses', () => {
    const url = dataUrl('b1', '/en/search?q=a%20b');
    assert.equal(url, '/_data/b1/en/search.json?q=a%20b');
    assert.deepEqual(parseDataUrl(url.split('?')[0]!), { build: 'b1', pagePath: '/en/search' });
    assert.equal(dataUrl('b1', '/en/docs'), '/_data/b1/en/docs.json');
  });
});
