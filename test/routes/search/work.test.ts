import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type IndexedPage,
  loadSearchIndex,
  MAX_POSTINGS,
  MAX_PREFIX_TERMS,
  queryTerms,
  SEARCH_SLICE,
  type SearchIndex,
  type SearchWork,
  searchSteps,
  searchTerms,
} from '../../../src/routes/search/engine.ts';
import { buildSearchIndex } from '../../../src/routes/search/index-writer.ts';
import { termRange, encodeTerm } from '../../../src/routes/search/compact-index.ts';

const COMMON = ['the', 'a', 'of', 'and', 'to', 'in', 'is', 'it', 'for', 'on', 'with', 'that'];

/**
 * An index where every section has every common word, in its page's title and in its
 * text, and a word of its own: `pages` × `sections` sections, 24 postings each for the
 * common words alone.
 */
function commonIndex(pages: number, sections: number): SearchIndex {
  const made: IndexedPage[] = [];
  for (let p = 0; p < pages; p++) {
    made.push({
      path: `/en/p${p}`,
      title: `${COMMON.join(' ')} page ${p}`,
      fallback: null,
      sections: Array.from({ length: sections }, (_, s) => ({
        id: s ? `s${s}` : '',
        heading: '',
        text: `${COMMON.join(' ')} word${p}x${s} thing${p % 97}`,
      })),
    });
  }
  return loadSearchIndex(buildSearchIndex('en', made));
}

/** Runs a search slice by slice; returns the units of each slice, the work in all, and the results. */
function runInSlices(index: SearchIndex, query: string, slice: number) {
  const work: SearchWork = { units: 0, postings: 0 };
  const steps = searchSteps(index, queryTerms(query, 'en'), 10, slice, work);
  const slices: number[] = [];
  for (;;) {
    const before = work.units;
    const next = steps.next();
    slices.push(work.units - before);
    if (next.done) return { slices, work, results: next.value };
  }
}

/** Postings of the terms in [from, to) of the index, in all fields. */
function postingsOf(index: SearchIndex, from: number, to: number): number {
  return index.postingOffsets[to * 3]! - index.postingOffsets[from * 3]!;
}

describe('the work one search does', () => {
  // 1,500 pages of 10 sections: each common word has 30,000 postings, the 12 together 360,000.
  const big = commonIndex(1500, 10);

  test('a query of twelve words that are in every section scores at most MAX_POSTINGS postings', () => {
    const hostile = COMMON.join(' ');
    const all = COMMON.reduce((sum, word) => {
      const [from] = termRange(big, encodeTerm(word));
      return sum + postingsOf(big, from, from + 1);
    }, 0);
    assert.ok(all > MAX_POSTINGS, `the query's postings (${all}) are more than the cap`);
    const { work, results } = runInSlices(big, hostile, SEARCH_SLICE);
    assert.ok(work.postings <= MAX_POSTINGS, `${work.postings} postings scored`);
    // Grouping and ranking cost at most one unit per posting each, on top of the postings and the look-ups.
    assert.ok(work.units <= 3 * MAX_POSTINGS + 2 * 12 * 32, `${work.units} units in all`);
    assert.equal(results.total, 1500, 'every page still found (the words walked are in every section)');
    assert.equal(results.hits.length, 10);
  });

  test('no slice does more than the slice it is given, the first or the last', () => {
    for (const [query, heavy] of [
      [COMMON.join(' '), true],
      [`${COMMON.slice(0, 11).join(' ')} th`, true],
      ['wor', false],
      ['page thing1', false],
    ] as const) {
      const { slices } = runInSlices(big, query, SEARCH_SLICE);
      assert.ok(
        slices.every((units) => units <= SEARCH_SLICE),
        `${query}: slices ${slices.join(',')}`,
      );
      if (heavy) assert.ok(slices.length > 10, `${query} takes ${slices.length} slices`);
    }
  });

  test('a prefix with thousands of words expands to at most MAX_PREFIX_TERMS of them, the shortest first', () => {
    const [from, to] = termRange(big, encodeTerm('word'));
    assert.ok(to - from > 10_000, `${to - from} words start with "word"`);
    const { work, results } = runInSlices(big, 'word', SEARCH_SLICE);
    // Each word<p>x<s> is in one section: one posting in its text.
    assert.ok(work.postings <= MAX_PREFIX_TERMS, `${work.postings} postings`);
    assert.ok(results.total > 0 && results.total <= MAX_PREFIX_TERMS, `${results.total} pages`);
    // The shortest words that start with "word" weigh most: word0x0 ... word0x9, all on the first page.
    assert.equal(results.hits[0]!.path.split('#')[0], '/en/p0');
  });

  test('the postings counted are the postings walked: under the caps, every posting of every term of the query', () => {
    const [from] = termRange(big, encodeTerm('page'));
    const [thingFrom] = termRange(big, encodeTerm('thing1'));
    const [prefixFrom, prefixTo] = termRange(big, encodeTerm('thing1'));
    assert.ok(prefixTo - prefixFrom > 1, 'thing1 is also a prefix (thing10, thing11...)');
    const { work } = runInSlices(big, 'page thing1', SEARCH_SLICE);
    assert.equal(thingFrom, prefixFrom);
    assert.equal(work.postings, postingsOf(big, from, from + 1) + postingsOf(big, prefixFrom, prefixTo));
  });

  test('a search in slices gives exactly the results of the search at once', () => {
    for (const query of [`${COMMON.slice(0, 11).join(' ')} th`, 'page thing1', 'word1x1 thing']) {
      assert.deepEqual(runInSlices(big, query, 1000).results, searchTerms(big, queryTerms(query, 'en'), 10), query);
    }
  });
});
