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
import { languageOf, STEMMED_LANGUAGES, stemTerm, termsOf } from '../../i18n/search-text.ts';
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
  /** Words the page is found by as by its title, though it does not say them (front matter `keywords`); not in the file's page list. */
  keywords?: readonly string[];
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
    extractField: (section, field) => (field === 'title' ? titleField(pages[section.p]!) : section[field as keyof Section]),
  };
}

/** What a page's title field holds: its title, and its keywords (one per line, so no word spans two). */
export function titleField({ title, keywords }: Pick<IndexedPage, 'title' | 'keywords'>): string {
  return keywords?.length ? `${title}\n${keywords.join('\n')}` : title;
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
  // Whole words as the index has them (stemmed); the last one as typed, for searchSteps to stem and to expand.
  const words = termsOf(query, locale, { parts: false, stem: false });
  const forms = words.map((word, i) => (i === words.length - 1 ? word : stemTerm(word, locale)));
  for (const term of new Set(forms)) {
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

/** searchIndex for terms made by queryTerms: the whole search at once (the browser's way; the server yields between slices). */
export function searchTerms(index: SearchIndex, terms: readonly string[], limit: number): SearchResults {
  const steps = searchSteps(index, terms, limit, Number.POSITIVE_INFINITY);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * What one search may cost, whatever the site. The work is counted in units: a posting
 * scored, a term of a prefix's range looked at, a section grouped into its page, a page
 * ranked; each is a few nanoseconds of work.
 * - MAX_POSTINGS: postings scored in all. The query's whole words are walked rarest
 *   first until they fill it (a word in nearly every section weighs next to nothing
 *   under BM25, and is the one left out); the last word's prefix expansions share
 *   what is left.
 * - MAX_PREFIX_TERMS: words a prefix expands to, the shortest first (they weigh most),
 *   chosen among the first MAX_PREFIX_SCAN words of the index that start with it.
 * The rest of the work (grouping, ranking) is at most one unit per posting scored, and
 * the snippets are made for the `limit` hits only.
 */
export const MAX_POSTINGS = 300_000;
/** Units of work the server does in one turn of its event loop (searchSteps' `slice`): about a millisecond. */
export const SEARCH_SLICE = 20_000;
export const MAX_PREFIX_TERMS = 64;
export const MAX_PREFIX_SCAN = 4096;
/** Shortest stem a typed word is matched by when it extends the stem (see searchSteps). */
const MIN_EXTENDED_STEM = 4;
/** Letters a typed word may go past such a stem (informatio -> inform). */
const MAX_STEM_EXTENSION = 4;

/** Work done so far by a run of searchSteps (for a caller that wants to see it, such as a test). */
export type SearchWork = { units: number; postings: number };

/**
 * searchTerms in slices: each `next()` does at most `slice` units of work (see
 * MAX_POSTINGS) and the last one returns the results. The server runs one slice per
 * turn of its event loop, so no request waits behind a whole search.
 */
export function* searchSteps(
  index: SearchIndex,
  terms: readonly string[],
  limit: number,
  slice: number,
  work: SearchWork = { units: 0, postings: 0 },
): Generator<void, SearchResults, void> {
  if (terms.length === 0 || index.documentCount === 0) return { total: 0, hits: [] };
  let left = slice;
  /** Counts `n` units done (n never more than `left`); true when the slice is used up. */
  const spend = (n: number): boolean => {
    work.units += n;
    left -= n;
    return left <= 0;
  };

  // The plan: which terms to walk, with which weight, for which query word.
  type Walk = { term: number; weight: number; q: number; postings: number };
  const exact: Walk[] = [];
  const prefixes: Walk[] = [];
  const stemming = (STEMMED_LANGUAGES as readonly string[]).includes(languageOf(index.locale));
  for (const [q, typed] of terms.entries()) {
    const last = q === terms.length - 1;
    // The last word comes as typed: its stem is looked up, and the words that start with the stem.
    const term = last ? stemTerm(typed, index.locale) : typed;
    const bytes = encodeTerm(term);
    const [from, to] = termRange(index, bytes);
    if (spend(Math.ceil(Math.log2(index.termCount + 2)))) {
      yield;
      left = slice;
    }
    const isExact = from < to && termIs(index, from, bytes);
    if (isExact) exact.push({ term: from, weight: 1, q, postings: postingCount(index, from) });
    const prefix = last && (term.length > 1 || NO_SPACES_START.test(term));
    if (!prefix) continue;
    const scanEnd = Math.min(to, (isExact ? from + 1 : from) + MAX_PREFIX_SCAN);
    for (let i = isExact ? from + 1 : from; i < scanEnd; ) {
      const stop = Math.min(scanEnd, i + left);
      const begun = i;
      for (; i < stop; i++) {
        // MiniSearch's weight: nearer PREFIX_WEIGHT the less the term adds to the prefix.
        const length = termLength(index, i);
        prefixes.push({
          term: i,
          weight: (PREFIX_WEIGHT * length) / (length + 0.3 * (length - term.length)),
          q,
          postings: postingCount(index, i),
        });
      }
      if (spend(i - begun)) {
        yield;
        left = slice;
      }
    }
    if (!stemming) continue;
    // A word cut short while typing often does not stem as the whole word does ("informat"
    // is not "inform"): the stems that the typed letters extend by up to four count as
    // prefix matches too, weighed by how much of the typed word they cover.
    for (let length = typed.length - 1; length >= Math.max(MIN_EXTENDED_STEM, typed.length - MAX_STEM_EXTENSION); length--) {
      const stem = typed.slice(0, length);
      if (stem.startsWith(term)) continue;
      const stemBytes = encodeTerm(stem);
      const [at] = termRange(index, stemBytes);
      if (spend(Math.ceil(Math.log2(index.termCount + 2)))) {
        yield;
        left = slice;
      }
      if (at < index.termCount && termIs(index, at, stemBytes))
        prefixes.push({
          term: at,
          weight: (PREFIX_WEIGHT * length) / (length + 0.3 * (typed.length - length)),
          q,
          postings: postingCount(index, at),
        });
    }
  }
  // Whole words, rarest first, while they fit; then the heaviest prefix expansions in what is left.
  let budget = MAX_POSTINGS;
  const walks: Walk[] = [];
  for (const walk of [...exact].sort((a, b) => a.postings - b.postings)) {
    // A word alone over the budget is walked in part (its first sections): the search still bounded.
    walk.postings = Math.min(walk.postings, budget);
    budget -= walk.postings;
    if (walk.postings > 0) walks.push(walk);
  }
  prefixes.sort((a, b) => b.weight - a.weight || a.term - b.term);
  let expansions = 0;
  for (const walk of prefixes) {
    if (expansions === MAX_PREFIX_TERMS) break;
    if (walk.postings === 0 || walk.postings > budget) continue;
    budget -= walk.postings;
    walks.push(walk);
    expansions++;
  }
  // Walked in the query's order, as MiniSearch adds them (the sums then match to the last bit).
  walks.sort((a, b) => a.q - b.q || a.term - b.term);

  const sums = newSums(index.documentCount);
  const matched = new Set<string>();
  const { postingOffsets, documentCount } = index;
  for (const [w, walk] of walks.entries()) {
    let room = walk.postings;
    for (let field = 0; field < FIELD_COUNT && room > 0; field++) {
      const start = postingOffsets[walk.term * FIELD_COUNT + field]!;
      const end = Math.min(postingOffsets[walk.term * FIELD_COUNT + field + 1]!, start + room);
      if (start === end) continue;
      room -= end - start;
      // MiniSearch's BM25+ over the field's whole list, also where only part of it is walked.
      const matching = postingOffsets[walk.term * FIELD_COUNT + field + 1]! - start;
      const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
      const boost = walk.weight * BOOST[field]!;
      for (let at = start; at < end; ) {
        const stop = Math.min(end, at + left);
        scorePostings(index, field, at, stop, idf, boost, sums);
        work.postings += stop - at;
        const done = stop - at;
        at = stop;
        if (spend(done)) {
          yield;
          left = slice;
        }
      }
    }
    matched.add(termAt(index, walk.term));
    if (walks[w + 1]?.q === walk.q) continue;
    // The query word's sums (its whole word and prefix expansions together) into the sections'.
    for (let i = 0; i < sums.termDocCount; ) {
      const stop = Math.min(sums.termDocCount, i + left);
      addWordScores(sums, i, stop, walk.q);
      const done = stop - i;
      i = stop;
      if (spend(done)) {
        yield;
        left = slice;
      }
    }
    sums.termDocCount = 0;
  }

  // Group sections by page: a page is as good as its best section, and covers every query word any of its sections has.
  const pageCount = index.pages.length;
  const grouped: Grouped = {
    best: new Int32Array(pageCount).fill(-1),
    score: new Float64Array(pageCount),
    covered: new Uint16Array(pageCount),
    pages: [],
  };
  const { best: pageBest, score: pageScore, covered: pageCovered, pages } = grouped;
  for (let i = 0; i < sums.touchedCount; ) {
    const stop = Math.min(sums.touchedCount, i + left);
    const begun = i;
    groupSections(index, sums, i, stop, grouped);
    i = stop;
    if (spend(i - begun)) {
      yield;
      left = slice;
    }
  }

  // The best `limit` pages: more query words first, then the score, then the page's order.
  const before = (a: number, b: number) => {
    const sizeA = bitCount(pageCovered[a]!);
    const sizeB = bitCount(pageCovered[b]!);
    return sizeA !== sizeB ? sizeA > sizeB : pageScore[a] !== pageScore[b] ? pageScore[a]! > pageScore[b]! : a < b;
  };
  const top = new TopPages(limit, before);
  for (let i = 0; i < pages.length; ) {
    const stop = Math.min(pages.length, i + left);
    const begun = i;
    top.offerAll(pages, i, stop);
    i = stop;
    if (spend(i - begun)) {
      yield;
      left = slice;
    }
  }
  const hits = top.sorted().map((p) => toHit(index, index.pages[p]!, pageBest[p]!, matched));
  return { total: pages.length, hits };
}

/**
 * Adds the BM25+ score of postings [start, stop) of one field, times `boost`, to the
 * documents' (in MiniSearch's order of operations, so the sums match to the last bit).
 * The loops that do the work live outside the generator: V8 optimises a hot loop inside
 * a running function (on-stack replacement) only in plain functions, never in a generator.
 */
function scorePostings(index: SearchIndex, field: number, start: number, stop: number, idf: number, boost: number, sums: Sums): void {
  const { docs, freqs, fieldLengths } = index;
  const { termScores, termDocs } = sums;
  let count = sums.termDocCount;
  const average = index.averageFieldLength[field]!;
  for (let at = start; at < stop; at++) {
    const d = docs[at]!;
    const frequency = freqs[at]!;
    const length = fieldLengths[d * FIELD_COUNT + field]!;
    const raw = idf * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average)));
    if (termScores[d] === 0) termDocs[count++] = d;
    termScores[d]! += boost * raw;
  }
  sums.termDocCount = count;
}

/**
 * A search's running sums, one slot per section: its score, the query words it has (one
 * bit each: there are at most MAX_QUERY_TERMS), the current word's score, the sections
 * the current word found, and every section found.
 */
type Sums = {
  scores: Float64Array;
  has: Uint16Array;
  termScores: Float64Array;
  termDocs: Int32Array;
  termDocCount: number;
  touched: Int32Array;
  touchedCount: number;
};

function newSums(documentCount: number): Sums {
  return {
    scores: new Float64Array(documentCount),
    has: new Uint16Array(documentCount),
    termScores: new Float64Array(documentCount),
    termDocs: new Int32Array(documentCount),
    termDocCount: 0,
    touched: new Int32Array(documentCount),
    touchedCount: 0,
  };
}

/** The scores of query word q in sections termDocs[from, to), added to the sections' sums. */
function addWordScores(sums: Sums, from: number, to: number, q: number): void {
  const { scores, has, termScores, termDocs, touched } = sums;
  for (let i = from; i < to; i++) {
    const d = termDocs[i]!;
    if (has[d] === 0) touched[sums.touchedCount++] = d;
    scores[d]! += termScores[d]!;
    has[d]! |= 1 << q;
    termScores[d] = 0;
  }
}

/** Pages as their sections are grouped: each page's best section and score, the query words it covers, the pages in the order found. */
type Grouped = { best: Int32Array; score: Float64Array; covered: Uint16Array; pages: number[] };

/** Sections touched[from, to) into their pages: a page is as good as its best section, and covers every query word any of its sections has. */
function groupSections(index: SearchIndex, { scores, has, touched }: Sums, from: number, to: number, grouped: Grouped): void {
  for (let i = from; i < to; i++) {
    const d = touched[i]!;
    // MiniSearch's final score: times the number of query terms the section has.
    const score = scores[d]! * bitCount(has[d]!);
    const p = index.docPages[d]!;
    const best = grouped.best[p]!;
    grouped.covered[p]! |= has[d]!;
    if (best === -1) grouped.pages.push(p);
    // Equal scores (a match in the title only): the earlier section, the top of the page.
    if (best === -1 || score > grouped.score[p]! || (score === grouped.score[p]! && d < best)) {
      grouped.best[p] = d;
      grouped.score[p] = score;
    }
  }
}

/** How many postings term i has, in all fields. */
function postingCount(index: SearchIndex, i: number): number {
  return index.postingOffsets[(i + 1) * FIELD_COUNT]! - index.postingOffsets[i * FIELD_COUNT]!;
}

/** The best `limit` of the pages offered, in a heap whose root is the worst kept: each offer costs at most log(limit). */
class TopPages {
  private readonly heap: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly before: (a: number, b: number) => boolean,
  ) {}

  offerAll(pages: readonly number[], from: number, to: number): void {
    for (let i = from; i < to; i++) this.offer(pages[i]!);
  }

  offer(p: number): void {
    const { heap, before } = this;
    if (this.limit <= 0) return;
    if (heap.length < this.limit) {
      heap.push(p);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!before(heap[parent]!, heap[at]!)) break;
        [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
        at = parent;
      }
      return;
    }
    if (!before(p, heap[0]!)) return;
    heap[0] = p;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && before(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && before(heap[worst]!, heap[right]!)) worst = right;
      if (worst === at) break;
      [heap[worst], heap[at]] = [heap[at]!, heap[worst]!];
      at = worst;
    }
  }

  /** The pages kept, best first. */
  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
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
