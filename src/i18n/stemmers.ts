// The browser's stemmers: only its locale's, loaded on the search box's first focus with
// the index (a module per language, 1-3 KB gzip each), so a reader never downloads the others.
import { languageOf, type StemmedLanguage, type Stemmer, STEMMED_LANGUAGES, addStemmer } from './search-text.ts';

const LOADERS: Record<StemmedLanguage, () => Promise<{ stemmer: Stemmer }>> = {
  ar: () => import('@orama/stemmers/arabic'),
  de: () => import('@orama/stemmers/german'),
  en: () => import('@orama/stemmers/english'),
  es: () => import('@orama/stemmers/spanish'),
  fr: () => import('@orama/stemmers/french'),
  it: () => import('@orama/stemmers/italian'),
  nl: () => import('@orama/stemmers/dutch'),
  pt: () => import('@orama/stemmers/portuguese'),
  ru: () => import('@orama/stemmers/russian'),
};

/** Loads the stemmer of a locale's language, if it has one, for search-text.ts. */
export async function loadStemmer(locale: string): Promise<void> {
  const language = languageOf(locale);
  if (!(STEMMED_LANGUAGES as readonly string[]).includes(language)) return;
  addStemmer(language as StemmedLanguage, (await LOADERS[language as StemmedLanguage]()).stemmer);
}
