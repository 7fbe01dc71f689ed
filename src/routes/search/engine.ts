// Search, one implementation for both sides: the build makes each locale's index
// (buildSearchIndex, in index-writer.ts), and the server and the browser load those same
// postings (loadSearchIndex, or the server's compact block of them) and answer a query with
// the same function (searchIndex), so the results page and the box under the header
// never disagree.
//
// The file is MiniSearch's plain-JSON serialisation and the scoring is MiniSearch's
// (BM25+, field boosts, prefix matches weighed by their length), run on a compact form
// of the postings (compact-index.ts): typed arrays, so a large locale neither fills the
// heap nor takes a second to load. The words and terms are ours (src/i18n/search-text.ts).
import type { Options } from 'minisearch';
import { termsOf } from '../../i18n/search-text.ts';
import type { SearchHit } from '../types.ts';
import {
  type CompactIndex,
  compactIndex,
  type IndexFile,
  documentString,
  encodeTerm,
  FIELD_COUNT,
  readCompactIndex,
  termAt,
  termIs,
  termLength,
  termRange,
} from './compact-index.ts';
import { markText, snippetOf } from './snippet.ts';

/** What the index is made from: one served page of a locale, its text cut at its headings. */
export type IndexedPage = {
  path: string;
  title: string;
  fallback: SearchHit['fallback'];
  sections: readonly { id: string; heading: string; text: string }[];
};

/** A loaded index: ready to answer queries. */
export type SearchIndex = CompactIndex;

export type SearchResults = { total: number; hits: SearchHit[] };

export type PageEntry = Omit<IndexedPage, 'sections'>;
/** One indexed document: a section of page `p` (short names: they are repeated in the file for every section). */
export type Section = { id: number; p: number; a: string; h: string; t: string };

export const FORMAT = 1;
/** The page title is searched in every section of its page, so a title word finds the page wherever the rest matched. */
export const FIELDS = ['title', 'h', 't'];
export const STORED = ['p', 'a', 'h', 't'];
/** Ranking: a word in the title counts most, then in a heading, then in the text (in FIELDS' order). */
const BOOST = [4, 2, 1];
/** MiniSearch's defaults: BM25+ parameters, and the weight of a prefix match. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
/**
 * What a query may make the engine walk, counted after normalisation (a few letters
 * become many under NFKD): its first MAX_QUERY_TERMS distinct terms, and of those only
 * as many as fit in MAX_QUERY_TERM_CHARS characters. The rest of a query is left out
 * (as the box leaves out nothing a person types), never refused.
 */
export const MAX_QUERY_TERMS = 12;
export const MAX_QUERY_TERM_CHARS = 256;
// Any run of letters in a script without spaces is a meaningful prefix; elsewhere one
// letter would expand to a large part of the index for nothing.
const NO_SPACES_START =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** MiniSearch's options for a locale's index (the writer in index-writer.ts makes what these would). */
export function options(locale: string, pages: readonly PageEntry[]): Options<Section> {
  return {
    fields: FIELDS,
    storeFields: STORED,
    tokenize: (text) => termsOf(text, locale),
    processTerm: (term) => term,
    extractField: (section, field) => (field === 'title' ? pages[section.p]!.title : section[field as keyof Section]),
  };
}

/** An index file (the JSON the build writes and the browser downloads), loaded. */
export function loadSearchIndex(json: string): SearchIndex {
  return readCompactIndex(compactIndex(parseIndexFile(json)));
}

export function parseIndexFile(json: string): IndexFile {
  const file = JSON.parse(json) as IndexFile;
  if (file.v !== FORMAT) throw new Error(`search index format ${String(file.v)}, expected ${FORMAT}: rebuild`);
  return file;
}

/** The terms of `query` the engine walks: distinct, in order, within the caps above. */
export function queryTerms(query: string, locale: string): string[] {
  const terms: string[] = [];
  let chars = 0;
  for (const term of new Set(termsOf(query, locale))) {
    if (terms.length === MAX_QUERY_TERMS || chars + term.length > MAX_QUERY_TERM_CHARS) break;
    terms.push(term);
    chars += term.length;
  }
  return terms;
}

/**
 * The pages that match `query`, best first, each at its best section. Words match
 * whole, the last one also as a prefix (the visitor may still be typing it). A page
 * that has more of the query's words ranks above one that has fewer; among equals,
 * BM25 with the field boosts decides.
 */
export function searchIndex(index: SearchIndex, query: string, limit: number): SearchResults {
  return searchTerms(index, queryTerms(query, index.locale), limit);
}

/** searchIndex for terms made by queryTerms. */
export function searchTerms(index: SearchIndex, terms: readonly string[], limit: number): SearchResults {
  if (terms.length === 0 || index.documentCount === 0) return { total: 0, hits: [] };
  const scores = new Float64Array(index.documentCount);
  // Which query terms each document has, one bit each (there are at most MAX_QUERY_TERMS).
  const has = new Uint16Array(index.documentCount);
  const termScores = new Float64Array(index.documentCount);
  const touched: number[] = [];
  const matched = new Set<string>();
  for (const [q, term] of terms.entries()) {
    const bytes = encodeTerm(term);
    const [from, to] = termRange(index, bytes);
    const prefix = q === terms.length - 1 && (term.length > 1 || NO_SPACES_START.test(term));
    const termDocs: number[] = [];
    const exact = from < to && termIs(index, from, bytes);
    if (exact) scoreTerm(index, from, 1, termScores, termDocs, matched);
    if (prefix) {
      for (let i = exact ? from + 1 : from; i < to; i++) {
        // MiniSearch's weight: nearer PREFIX_WEIGHT the less the term adds to the prefix.
        const length = termLength(index, i);
        scoreTerm(index, i, (PREFIX_WEIGHT * length) / (length + 0.3 * (length - term.length)), termScores, termDocs, matched);
      }
    }
    for (const d of termDocs) {
      if (has[d] === 0) touched.push(d);
      scores[d]! += termScores[d]!;
      has[d]! |= 1 << q;
      termScores[d] = 0;
    }
  }

  // Group sections by page: a page is as good as its best section, and covers every query word any of its sections has.
  const pages = new Map<number, { best: number; score: number; covered: number }>();
  for (const d of touched) {
    // MiniSearch's final score: times the number of query terms the section has.
    const score = scores[d]! * bitCount(has[d]!);
    const p = index.docPages[d]!;
    const entry = pages.get(p);
    if (!entry) pages.set(p, { best: d, score, covered: has[d]! });
    else {
      entry.covered |= has[d]!;
      // Equal scores (a match in the title only): the earlier section, the top of the page.
      if (score > entry.score || (score === entry.score && d < entry.best)) {
        entry.best = d;
        entry.score = score;
      }
    }
  }
  const ranked = [...pages.entries()].map(([p, entry]) => ({ p, ...entry, size: bitCount(entry.covered) }));
  ranked.sort((a, b) => b.size - a.size || b.score - a.score || a.p - b.p);
  const hits = ranked.slice(0, limit).map(({ p, best }) => toHit(index, index.pages[p]!, best, matched));
  return { total: ranked.length, hits };
}

/** Adds term i's BM25+ score, times `weight`, in each field, to the documents that have it. */
function scoreTerm(index: SearchIndex, i: number, weight: number, scores: Float64Array, docs: number[], matched: Set<string>): void {
  const { postingOffsets, averageFieldLength, fieldLengths, documentCount } = index;
  let found = false;
  for (let field = 0; field < FIELD_COUNT; field++) {
    const start = postingOffsets[i * FIELD_COUNT + field]!;
    const end = postingOffsets[i * FIELD_COUNT + field + 1]!;
    if (start === end) continue;
    found = true;
    const matching = end - start;
    const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
    const boost = weight * BOOST[field]!;
    const average = averageFieldLength[field]!;
    for (let at = start; at < end; at++) {
      const d = index.docs[at]!;
      const frequency = index.freqs[at]!;
      const length = fieldLengths[d * FIELD_COUNT + field]!;
      const raw = idf * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average)));
      if (scores[d] === 0) docs.push(d);
      scores[d]! += boost * raw;
    }
  }
  if (found) matched.add(termAt(index, i));
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest; rest &= rest - 1) count++;
  return count;
}

function toHit(index: SearchIndex, page: PageEntry, d: number, matched: ReadonlySet<string>): SearchHit {
  const anchor = documentString(index, d, 0);
  const heading = documentString(index, d, 1);
  return {
    path: anchor ? `${page.path}#${encodeURIComponent(anchor)}` : page.path,
    title: markText(page.title, matched, index.locale),
    heading: heading ? markText(heading, matched, index.locale) : null,
    snippet: snippetOf(documentString(index, d, 2), matched, index.locale),
    fallback: page.fallback,
  };
}
