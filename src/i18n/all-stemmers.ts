// Every stemmer, for the server and the build (they index and search every locale).
// Imported for its effect by the modules that make or search indexes outside the browser.
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { type StemmedLanguage, type Stemmer, addStemmer } from './search-text.ts';

const ALL: Record<StemmedLanguage, Stemmer> = {
  ar: arabic,
  de: german,
  en: english,
  es: spanish,
  fr: french,
  it: italian,
  nl: dutch,
  pt: portuguese,
  ru: russian,
};
for (const [language, stemmer] of Object.entries(ALL)) addStemmer(language as StemmedLanguage, stemmer);
