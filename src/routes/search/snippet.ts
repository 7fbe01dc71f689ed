// The words a search matched, marked in the text they were found in. The result is
// plain text in parts (React escapes it when it renders), never HTML.
import { eachWord, normaliseTerm, wordsOf, type Word } from '../../i18n/search-text.ts';
import type { Marked } from '../types.ts';

/** Characters of context shown before the first matched word, and the snippet's whole length. */
const BEFORE = 48;
const LENGTH = 180;

/** The whole text, its matched words marked (for titles and headings). */
export function markText(text: string, matched: ReadonlySet<string>, locale: string): Marked {
  return parts(text, 0, text.length, findWords(text, matched, locale), matched);
}

/**
 * A window of the text around its first matched word, cut at word boundaries, with
 * `…` where text was left out. Without a match in the text (the page matched by its
 * title or a heading), its beginning. Words are read only up to the window's end.
 */
export function snippetOf(text: string, matched: ReadonlySet<string>, locale: string): Marked {
  // A cheap look first: a term that is not in the normalised text is in none of its words.
  const normalised = normaliseTerm(text);
  const present = new Set([...matched].filter((term) => normalised.includes(term)));
  const words: Word[] = [];
  let first: Word | undefined;
  let end = Math.min(text.length, LENGTH);
  if (present.size > 0) {
    for (const word of eachWord(text, locale, (run) => containsAny(run, present))) {
      words.push(word);
      if (!first && present.has(word.term)) {
        first = word;
        end = Math.min(text.length, Math.max(0, first.start - BEFORE) + LENGTH);
      }
      if (first && word.start >= end) break;
    }
  } else {
    for (const word of eachWord(text, locale, () => false)) {
      words.push(word);
      if (word.start >= end) break;
    }
  }
  let start = first ? Math.max(0, first.start - BEFORE) : 0;
  if (start > 0) start = words.find((word) => word.start >= start)?.start ?? start;
  end = Math.min(text.length, start + LENGTH);
  if (end < text.length) {
    const last = words.findLast((word) => word.end <= end && word.start >= start);
    if (last) end = last.end;
  }
  const marked = parts(text, start, end, words, present);
  if (start > 0) marked.unshift({ text: '… ', mark: false });
  if (end < text.length) marked.push({ text: ' …', mark: false });
  return merge(marked);
}

/** The words of `text`; runs that cannot hold a matched term are not segmented (the slow part). */
function findWords(text: string, matched: ReadonlySet<string>, locale: string): Word[] {
  return wordsOf(text, locale, (run) => containsAny(run, matched));
}

function containsAny(run: string, terms: ReadonlySet<string>): boolean {
  for (const term of terms) if (run.includes(term)) return true;
  return false;
}

function parts(text: string, start: number, end: number, words: readonly Word[], matched: ReadonlySet<string>): Marked {
  const out: Marked = [];
  let at = start;
  for (const word of words) {
    if (word.start < start || word.end > end || !matched.has(word.term)) continue;
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
