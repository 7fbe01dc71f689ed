// The words a search matched, marked in the text they were found in. The result is
// plain text in parts (React escapes it when it renders), never HTML.
import { wordsOf, type Word } from '../../i18n/search-text.ts';
import type { Marked } from '../types.ts';
import { BoundedCache } from '../bounded-cache.ts';

/** Characters of context shown before the first matched word, and the snippet's whole length. */
const BEFORE = 48;
const LENGTH = 180;

/** The whole text, its matched words marked (for titles and headings). */
export function markText(text: string, matched: ReadonlySet<string>, locale: string): Marked {
  return parts(text, 0, text.length, wordsIn(text, locale), matched);
}

/**
 * A window of the text around its first matched word, cut at word boundaries, with
 * `…` where text was left out. Without a match in the text (the page matched by its
 * title or a heading), its beginning.
 */
export function snippetOf(text: string, matched: ReadonlySet<string>, locale: string): Marked {
  const words = wordsIn(text, locale);
  const first = words.find((word) => matched.has(word.term));
  let start = first ? Math.max(0, first.start - BEFORE) : 0;
  if (start > 0) start = words.find((word) => word.start >= start)?.start ?? start;
  let end = Math.min(text.length, start + LENGTH);
  if (end < text.length) {
    const last = words.findLast((word) => word.end <= end && word.start >= start);
    if (last) end = last.end;
  }
  const marked = parts(text, start, end, words, matched);
  if (start > 0) marked.unshift({ text: '… ', mark: false });
  if (end < text.length) marked.push({ text: ' …', mark: false });
  return merge(marked);
}

// The words of the texts quoted lately, per locale. Finding words is most of the work
// of a search (normalising, segmenting Japanese), and the same sections are quoted
// again and again. Bounded by the bytes it holds: a text and its words (each an object
// with two numbers and a term) are kept together.
export const WORDS_KEPT_BYTES = 4 * 1024 * 1024;
/** What a Word costs beyond its term's characters: the object, two small numbers, the term's string header. */
const WORD_BYTES = 56;
export const wordCache = new BoundedCache<Word[]>(WORDS_KEPT_BYTES, (words, key) => 2 * key.length + wordsBytes(words));

function wordsBytes(words: readonly Word[]): number {
  let bytes = 16 + 8 * words.length;
  for (const word of words) bytes += WORD_BYTES + 2 * word.term.length;
  return bytes;
}

function wordsIn(text: string, locale: string): Word[] {
  const key = `${locale}\n${text}`;
  let words = wordCache.get(key);
  if (!words) {
    words = wordsOf(text, locale);
    wordCache.set(key, words);
  }
  return words;
}

function parts(text: string, start: number, end: number, words: readonly Word[], matched: ReadonlySet<string>): Marked {
  const out: Marked = [];
  let at = start;
  for (const word of words) {
    // A compound's parts lie inside it: a part is marked only where its compound was not.
    if (word.start < start || word.start < at || word.end > end || !matched.has(word.term)) continue;
    if (word.start > at) out.push({ text: text.slice(at, word.start), mark: false });
    out.push({ text: text.slice(word.start, word.end), mark: true });
    at = word.end;
  }
  if (at < end) out.push({ text: text.slice(at, end), mark: false });
  return out;
}

/** Adjacent unmarked parts as one (the ellipses join their neighbours). */
function merge(marked: Marked): Marked {
  const out: Marked = [];
  for (const part of marked) {
    const last = out.at(-1);
    if (last && !last.mark && !part.mark) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}
