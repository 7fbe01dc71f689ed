// Locale vocabulary shared by server and client. The set of supported locales is
// discovered on the server (the folders under `locales/`) and travels to the
// browser inside the page data, so nothing here hard-codes the list.

/** Scripts written right to left. Checked by language subtag, so `ar-EG` is RTL too. */
const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'yi', 'dv', 'ckb']);

export type Direction = 'ltr' | 'rtl';

export function directionOf(locale: string): Direction {
  const language = locale.split('-', 1)[0]!.toLowerCase();
  return RTL_LANGUAGES.has(language) ? 'rtl' : 'ltr';
}

/**
 * A well-formed BCP 47 language tag of the simple kind we use for folder names:
 * a 2-3 letter language, optionally a script and/or a region (`en`, `pt-BR`, `zh-Hant`).
 */
export function isLocaleTag(value: string): boolean {
  return /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/.test(value);
}

/**
 * A lookup from lower-cased locale to its canonical spelling, built once.
 * Matching a URL segment is then one `toLowerCase` and one `Map.get`.
 */
export type LocaleIndex = ReadonlyMap<string, string>;

export function indexLocales(locales: readonly string[]): LocaleIndex {
  return new Map(locales.map((locale) => [locale.toLowerCase(), locale]));
}
