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
import { createHash } from 'node:crypto';
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

export function openTermsCache(dir: string, localesDir: string, scope: string, locale: string, code: string): TermsCache {
  const file = join(dir, `${cacheFileName(localesDir, scope)}.terms.gz`);
  const header = JSON.stringify({ format: FORMAT, code, locale });
  const kept = readPackLines(file, (line) => line === header);
  const used = new Map<string, Buffer>();
  let added = false;
  // The terms of the texts this build indexed so far, by text: a text that comes again (a
  // page's title in each of its sections, a paragraph many pages share) is neither hashed
  // nor read again. Bounded: past SEEN_BYTES it starts again empty.
  const seen = new Map<string, string[]>();
  let seenBytes = 0;
  const termsOfText = (text: string): string[] => {
    const key = createHash('sha256').update(text).digest('base64url');
    const line = used.get(key) ?? kept.get(key);
    if (line !== undefined) {
      used.set(key, line);
      return line.length ? line.toString().split(' ') : [];
    }
    const terms = termsOf(text, locale);
    const joined = terms.join(' ');
    if (!terms.some((term) => term === '' || /[\s]/.test(term))) {
      used.set(key, Buffer.from(joined));
      added = true;
    }
    return terms;
  };
  return {
    terms(text, textLocale) {
      if (textLocale !== locale) return termsOf(text, textLocale);
      const known = seen.get(text);
      if (known) return known;
      const terms = termsOfText(text);
      const bytes = seenCost(text, terms);
      if (seenBytes + bytes > SEEN_BYTES) {
        seen.clear();
        seenBytes = 0;
      }
      seen.set(text, terms);
      seenBytes += bytes;
      return terms;
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
