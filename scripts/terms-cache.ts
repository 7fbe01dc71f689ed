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

export type TermsCache = {
  /** termsOf(text, locale), from the pack when it has the text. */
  terms(text: string, locale: string): string[];
  save(): void;
};

export function openTermsCache(dir: string, localesDir: string, scope: string, locale: string, code: string): TermsCache {
  const file = join(dir, `${cacheFileName(localesDir, scope)}.terms.gz`);
  const header = JSON.stringify({ format: FORMAT, code, locale });
  const kept = readPackLines(file, (line) => line === header);
  const used = new Map<string, Buffer>();
  let added = false;
  return {
    terms(text, textLocale) {
      if (textLocale !== locale) return termsOf(text, textLocale);
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
