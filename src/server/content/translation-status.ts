import type { PageKey } from './paths.ts';
import type { Site } from './site.ts';
import { type TranslationStatus, translationStatus } from './translation-record.ts';

/** One page in one locale other than the default. */
export type TranslationRow = {
  locale: string;
  key: PageKey;
  status: TranslationStatus;
  /** The default-locale source's fingerprint now. */
  source: string;
  /** What the translation's record holds, when it has one. */
  recorded?: string;
};

/**
 * Every page of the default locale in every other locale, from the compiled site
 * alone (fingerprints and records travel in the built snapshot): no git, no files.
 */
export function translationRows(site: Site): TranslationRow[] {
  const sources = site.pages.get(site.defaultLocale)!;
  const rows: TranslationRow[] = [];
  for (const locale of site.locales) {
    if (locale === site.defaultLocale) continue;
    const pages = site.pages.get(locale)!;
    for (const [key, source] of sources) {
      // A docs folder's page made for want of an index.md has no text to translate.
      if (source.generated) continue;
      const page = pages.get(key);
      const translated = page !== undefined && page.contentLocale === locale;
      const recorded = translated ? page.recorded : undefined;
      rows.push({
        locale,
        key,
        status: translationStatus(translated, recorded, source.fingerprint),
        source: source.fingerprint,
        ...(recorded !== undefined && { recorded }),
      });
    }
  }
  return rows;
}
