import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What each translation was made from, kept in the repository so that a build
// without `.git` (Heroku, a container) still knows which translations are behind.
// Each locale but the default has `locales/<locale>/translations.json`: page slug ->
// the fingerprint of the default-locale source the translation matches. Translators
// never edit it; `npm run translations -- --done <locale> <slug>` writes it.

export const RECORD_FILE = 'translations.json';

/** How a page stands in a locale. */
export type TranslationStatus = 'up-to-date' | 'outdated' | 'missing' | 'unknown';

/** Slug -> source fingerprint. */
export type TranslationRecord = Record<string, string>;

/**
 * The source's text as it matters to a translator: title, description and body, with
 * runs of white space made one space, so re-wrapping a paragraph is not a change.
 */
export function sourceFingerprint(page: { title: string; description: string; body: string }): string {
  const normal = (text: string) => text.replace(/\s+/g, ' ').trim();
  return hash('sha256', `${normal(page.title)}\0${normal(page.description)}\0${normal(page.body)}`, 'hex').slice(0, 16);
}

/**
 * `translated`: the locale has its own file for the page. `recorded`: the fingerprint
 * its record holds (undefined when none). No record is "unknown": never a guess.
 */
export function translationStatus(translated: boolean, recorded: string | undefined, current: string): TranslationStatus {
  if (!translated) return 'missing';
  if (recorded === undefined) return 'unknown';
  return recorded === current ? 'up-to-date' : 'outdated';
}

/**
 * A change to the source that needs no translation (a typo fix): every record that
 * matched the source before the change (`previous`) is moved to the source after it
 * (`current`). A record already behind stays behind: the fix does not hide an older change.
 */
export function carryForward(record: TranslationRecord, slug: string, previous: string, current: string): TranslationRecord {
  return record[slug] === previous ? { ...record, [slug]: current } : record;
}

export function readRecord(localesDir: string, locale: string): TranslationRecord {
  const file = join(localesDir, locale, RECORD_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error(`${file}: must be an object of "slug": "fingerprint"`);
  for (const [slug, value] of Object.entries(data)) {
    if (typeof value !== 'string') throw new Error(`${file}: the record of "${slug}" must be a string`);
  }
  return data as TranslationRecord;
}

/** Sorted by slug, one entry a line: a diff shows which page was recorded. */
export function writeRecord(localesDir: string, locale: string, record: TranslationRecord): void {
  const sorted = Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(join(localesDir, locale, RECORD_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
}
