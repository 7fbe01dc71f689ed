// Search, one implementation for both sides: the build makes each locale's index
// (buildSearchIndex, in index-writer.ts), and the server and the browser load those same bytes
// (loadSearchIndex) and answer a query with the same function (searchIndex), so the
// results page and the box under the header never disagree.
//
// The index and the scoring are MiniSearch's (BM25+, field boosts, prefix search on
// a radix tree, a plain-JSON serialisation, about 6 KB gzip in the browser); the
// words and terms are ours (src/i18n/search-text.ts).
import MiniSearch, { type AsPlainObject, type Options, type SearchResult } from 'minisearch';
import { termsOf } from '../../i18n/search-text.ts';
import type { SearchHit } from '../types.ts';
import { markText, snippetOf } from './snippet.ts';

/** What the index is made from: one served page of a locale, its text cut at its headings. */
export type IndexedPage = {
  path: string;
  title: string;
  fallback: SearchHit['fallback'];
  sections: readonly { id: string; heading: string; text: string }[];
};

/** A loaded index: ready to answer queries. */
export type SearchIndex = { locale: string; pages: readonly PageEntry[]; engine: MiniSearch<Section> };

export type SearchResults = { total: number; hits: SearchHit[] };

export type PageEntry = Omit<IndexedPage, 'sections'>;
/** One indexed document: a section of page `p` (short names: they are repeated in the file for every section). */
export type Section = { id: number; p: number; a: string; h: string; t: string };
type IndexFile = { v: typeof FORMAT; locale: string; pages: PageEntry[]; index: AsPlainObject };

export const FORMAT = 1;
/** The page title is searched in every section of its page, so a title word finds the page wherever the rest matched. */
export const FIELDS = ['title', 'h', 't'];
export const STORED = ['p', 'a', 'h', 't'];
/** Ranking: a word in the title counts most, then in a heading, then in the text. */
const BOOST = { title: 4, h: 2, t: 1 };
/** More words than this in a query are not looked at: each costs a walk of the index. */
const MAX_QUERY_TERMS = 12;
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

export function loadSearchIndex(json: string): SearchIndex {
  const file = JSON.parse(json) as IndexFile;
  if (file.v !== FORMAT) throw new Error(`search index format ${String(file.v)}, expected ${FORMAT}: rebuild`);
  return { locale: file.locale, pages: file.pages, engine: MiniSearch.loadJS(file.index, options(file.locale, file.pages)) };
}

/**
 * The pages that match `query`, best first, each at its best section. Words match
 * whole, the last one also as a prefix (the visitor may still be typing it). A page
 * that has more of the query's words ranks above one that has fewer; among equals,
 * BM25 with the field boosts decides.
 */
export function searchIndex(index: SearchIndex, query: string, limit: number): SearchResults {
  const terms = [...new Set(termsOf(query, index.locale))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return { total: 0, hits: [] };
  const results = index.engine.search(terms.join(' '), {
    // The terms are already ours: split them back, nothing more.
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term,
    prefix: (term, i, all) => i === all.length - 1 && (term.length > 1 || NO_SPACES_START.test(term)),
    combineWith: 'OR',
    boost: BOOST,
  });

  // Group sections by page: a page is as good as its best section, and covers every query word any of its sections has.
  const pages = new Map<number, { best: SearchResult; covered: Set<string> }>();
  const matched = new Set<string>();
  for (const result of results) {
    for (const term of result.terms) matched.add(term);
    const p = result.p as number;
    const entry = pages.get(p);
    if (!entry) pages.set(p, { best: result, covered: new Set(result.queryTerms) });
    else {
      for (const term of result.queryTerms) entry.covered.add(term);
      // Equal scores (a match in the title only): the earlier section, the top of the page.
      if (result.score > entry.best.score || (result.score === entry.best.score && result.id < entry.best.id)) entry.best = result;
    }
  }
  const ranked = [...pages.entries()].sort(([pa, a], [pb, b]) => b.covered.size - a.covered.size || b.best.score - a.best.score || pa - pb);
  const hits = ranked.slice(0, limit).map(([p, { best }]) => toHit(index, index.pages[p]!, best, matched));
  return { total: ranked.length, hits };
}

function toHit(index: SearchIndex, page: PageEntry, section: SearchResult, matched: ReadonlySet<string>): SearchHit {
  const anchor = section.a as string;
  const heading = section.h as string;
  return {
    path: anchor ? `${page.path}#${encodeURIComponent(anchor)}` : page.path,
    title: markText(page.title, matched, index.locale),
    heading: heading ? markText(heading, matched, index.locale) : null,
    snippet: snippetOf(section.t as string, matched, index.locale),
    fallback: page.fallback,
  };
}
