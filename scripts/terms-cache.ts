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
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';
import { termsOf } from '../src/i18n/search-text.ts';

const FORMAT = 1;

export type TermsCache = {
  /** termsOf(text, locale), from the pack when it has the text. */
  terms(text: string, locale: string): string[];
  save(): void;
};

export function openTermsCache(dir: string, localesDir: string, scope: string, locale: string, code: string): TermsCache {
  const name = createHash('sha256')
    .update(`${resolve(localesDir)}\0${scope}`)
    .digest('hex')
    .slice(0, 24);
  const file = join(dir, `${name}.terms.gz`);
  const header = JSON.stringify({ format: FORMAT, code, locale });
  const kept = readPack(file, header);
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
      if (!added && used.size === kept.size) {
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch {
          // None yet: nothing to mark.
        }
        return;
      }
      const parts: Buffer[] = [Buffer.from(header)];
      for (const [key, line] of used) parts.push(Buffer.from(`\n${key}\t`), line);
      const temporary = `${file}.${process.pid}-${threadId}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(temporary, gzipSync(Buffer.concat(parts), { level: 1 }));
        renameSync(temporary, file);
      } catch {
        // A cache that cannot be written costs the next build time, never this one's output.
        rmSync(temporary, { force: true });
      }
    },
  };
}

/** A pack's lines by key (each its terms, as UTF-8 bytes), or none when it is missing, not whole, or not of this header. */
function readPack(file: string, header: string): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let bytes: Buffer;
  try {
    bytes = gunzipSync(readFileSync(file));
  } catch {
    return entries;
  }
  let end = bytes.indexOf(10);
  if (bytes.toString('utf8', 0, end === -1 ? bytes.length : end) !== header) return entries;
  while (end !== -1) {
    const start = end + 1;
    end = bytes.indexOf(10, start);
    const line = bytes.subarray(start, end === -1 ? bytes.length : end);
    const tab = line.indexOf(9);
    if (tab !== -1) entries.set(line.subarray(0, tab).toString(), line.subarray(tab + 1));
  }
  return entries;
}
