// The terms of each indexed text (search-text.ts#termsOf: its words cut, normalised and
// stemmed) kept between builds: a locale whose pages changed is indexed again, and the
// text of its unchanged sections is not cut and stemmed again (most of making an index).
//
// One gzipped pack per site and search scope, as the page cache keeps pages: a header
// naming the format, the compiler's code hash (the stemmers and ICU's word breaks are in
// it) and the locale, then a line per text: a hash of the text, a tab, its terms joined by
// spaces (a term never holds a space or a line break: a text whose terms would is not
// kept). A pack that is cut off, corrupt or of other code is ignored. It is rewritten with
// the texts this build indexed, only when one of them was not in it.
import { hash } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { termsOf } from '../src/i18n/search-text.ts';
import { cacheFileName, readPackLines, saveCacheFile } from '../src/server/content/cache-file.ts';

const FORMAT = 1;
/** Bytes the memo of texts and their terms may hold, counted as seenCost counts them. */
const SEEN_BYTES = 16 * 1024 * 1024;

/** What one remembered text costs: its Map entry, the array, and its strings (two bytes a unit at most). */
function seenCost(text: string, terms: readonly string[]): number {
  let bytes = 64 + 2 * text.length + 16 + 8 * terms.length;
  for (const term of terms) bytes += 16 + 2 * term.length;
  return bytes;
}

export type TermsCache = {
  /** termsOf(text, locale), from the pack when it has the text (the same array for the same text: do not change it). */
  terms(text: string, locale: string): string[];
  save(): void;
};

/** A text's terms as remembered: with its key and line in a pack, when it can be kept in one. */
type Seen = { terms: string[]; key: string; line: Buffer | undefined };

/**
 * The terms of the texts a build indexed so far in one locale, by text: a text that comes
 * again (a page's title in each of its sections, a paragraph many pages share, a frozen
 * docs version's page in each version's index) is neither hashed nor cut again. One memo
 * may serve all of a locale's search scopes (give it SEEN_BYTES for each: `scopes`).
 * Bounded: past its bytes it starts again empty.
 */
export function termsMemo(locale: string, scopes = 1) {
  const maxBytes = SEEN_BYTES * scopes;
  const seen = new Map<string, Seen>();
  let seenBytes = 0;
  return {
    locale,
    get: (text: string): Seen | undefined => seen.get(text),
    add(text: string, entry: Seen): void {
      const bytes = seenCost(text, entry.terms);
      if (seenBytes + bytes > maxBytes) {
        seen.clear();
        seenBytes = 0;
      }
      seen.set(text, entry);
      seenBytes += bytes;
    },
  };
}
export type TermsMemo = ReturnType<typeof termsMemo>;

/** termsOf for a locale's texts, through `memo` (for a build without the content cache). */
export function memoisedTerms(memo: TermsMemo): (text: string, locale: string) => string[] {
  return (text, textLocale) => {
    if (textLocale !== memo.locale) return termsOf(text, textLocale);
    const known = memo.get(text);
    if (known) return known.terms;
    const terms = termsOf(text, textLocale);
    memo.add(text, { terms, key: '', line: undefined });
    return terms;
  };
}

export function openTermsCache(
  dir: string,
  localesDir: string,
  scope: string,
  locale: string,
  code: string,
  shared?: TermsMemo,
): TermsCache {
  const seen = shared?.locale === locale ? shared : termsMemo(locale);
  const file = join(dir, `${cacheFileName(localesDir, scope)}.terms.gz`);
  const header = JSON.stringify({ format: FORMAT, code, locale });
  const kept = readPackLines(file, (line) => line === header);
  const used = new Map<string, Buffer>();
  let added = false;
  const termsOfText = (text: string): Seen => {
    // One call, no Hash object: a locale has tens of thousands of texts.
    const key = hash('sha256', text, 'base64url');
    const line = used.get(key) ?? kept.get(key);
    if (line !== undefined) {
      used.set(key, line);
      return { terms: line.length ? line.toString().split(' ') : [], key, line };
    }
    const terms = termsOf(text, locale);
    if (terms.some((term) => term === '' || /[\s]/.test(term))) return { terms, key, line: undefined };
    const joined = Buffer.from(terms.join(' '));
    used.set(key, joined);
    added = true;
    return { terms, key, line: joined };
  };
  return {
    terms(text, textLocale) {
      if (textLocale !== locale) return termsOf(text, textLocale);
      const known = seen.get(text);
      // Known from another scope's index: kept in this scope's pack as well.
      if (known?.line && !used.has(known.key)) {
        used.set(known.key, known.line);
        if (!kept.has(known.key)) added = true;
      }
      if (known?.key) return known.terms;
      const made = termsOfText(text);
      seen.add(text, made);
      return made.terms;
    },
    save() {
      saveCacheFile(file, added || used.size !== kept.size, () => {
        const parts: Buffer[] = [Buffer.from(header)];
        for (const [key, line] of used) parts.push(Buffer.from(`\n${key}\t`), line);
        return gzipSync(Buffer.concat(parts), { level: 1 });
      });
    },
  };
}
