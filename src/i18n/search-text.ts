// Words and search terms, the same on the server, at build time and in the browser:
// the index is made with these functions and every query goes through them, so a
// query can only fail to match because the word is not there.
//
// Words are runs of letters, digits and marks (apostrophes inside a word kept),
// found with one regular expression: fast, and the same in every engine. Only runs
// in scripts written without spaces (Japanese, Chinese, Thai...) are split further,
// by Intl.Segmenter's dictionary. A word is indexed by its stem in the languages
// that have a Snowball stemmer here (STEMMERS), so "compresser" finds "compressé".
// Compound words are indexed whole and by their parts: `foo_bar` and `fooBar` as
// foobar, foo and bar; a mnemonic letter in brackets (`E[x]tract`) is part of its word.
/** A word of a text: where it is (UTF-16 offsets) and the term it stands for in the index. */
export type Word = { start: number; end: number; term: string };

const PIECE = String.raw`[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*`;
// A letter or two in brackets before more of the word: a mnemonic (`E[x]tract`, `[c]reate`), not an index (`a[i]`).
const MNEMONIC = String.raw`\[[\p{L}\p{N}]{1,2}\](?=[\p{L}\p{N}])`;
const RUN = new RegExp(`(?:${MNEMONIC})?${PIECE}(?:(?:_+|${MNEMONIC})${PIECE})*`, 'gu');
const PIECES = new RegExp(PIECE, 'gu');
const COMPOUND_MARK = /[_[]/;
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// A lower-case letter before a capital (fooBar), or a capital before a capitalised word (ETag, HTTPServer).
const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const CAMEL_PARTS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}'’]+|\p{Lu}+|\p{N}+/gu;

/**
 * The languages whose words are indexed by their stems, with the Snowball stemmers
 * (Orama's port, @orama/stemmers). A language without one keeps its words whole. The
 * server and the build use them all (all-stemmers.ts); the browser loads its locale's
 * (stemmers.ts) before it searches an index.
 */
export const STEMMED_LANGUAGES = ['ar', 'de', 'en', 'es', 'fr', 'it', 'nl', 'pt', 'ru'] as const;
export type StemmedLanguage = (typeof STEMMED_LANGUAGES)[number];
export type Stemmer = (word: string) => string;
const STEMMERS = new Map<string, Stemmer>();

/** Makes a language's stemmer available to every function here. */
export function addStemmer(language: StemmedLanguage, stemmer: Stemmer): void {
  STEMMERS.set(language, stemmer);
}

/** A locale's language subtag, in lower case (`pt-BR` -> `pt`). */
export function languageOf(locale: string): string {
  return locale.split('-')[0]!.toLowerCase();
}

/** How many characters of `text` are in scripts written without spaces (the build weighs a locale's indexing work by it). */
export function charactersWithoutSpaces(text: string): number {
  return text.match(new RegExp(NO_SPACES.source, 'gu'))?.length ?? 0;
}
// The prolonged sound mark (ー) is Script=Common; it belongs to the katakana word around it.
const KATAKANA_ONLY = /^[\p{Script=Katakana}\u30fc]+$/u;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: string): Intl.Segmenter {
  let found = segmenters.get(locale);
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, found);
  }
  return found;
}

/** How a text becomes terms: `parts` adds each compound's parts after it (the index does); `stem` indexes words by their stems (only a query's last word, still being typed, is looked up unstemmed). */
export type TermOptions = { parts?: boolean; stem?: boolean };

/**
 * The words of `text`, in order (a compound, then its parts, which lie inside it).
 * `locale` picks the segmenter's language for runs without spaces, and the stemmer.
 */
export function wordsOf(text: string, locale: string): Word[] {
  return [...eachWord(text, locale)];
}

/** wordsOf, one word at a time: a reader that needs only the first few stops early. */
export function* eachWord(text: string, locale: string): Generator<Word> {
  const stemmer = stemmerOf(locale);
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    const start = match.index;
    if (!NO_SPACES.test(run)) {
      yield* plainWords(run, start, stemmer);
      continue;
    }
    if (!COMPOUND_MARK.test(run)) {
      yield* segmentRun(run, start, locale);
      continue;
    }
    // A compound with words in a script without spaces: each of its pieces as a run of its own.
    for (const piece of run.matchAll(PIECES)) {
      if (NO_SPACES.test(piece[0])) yield* segmentRun(piece[0], start + piece.index, locale);
      else yield* plainWords(piece[0], start + piece.index, stemmer);
    }
  }
}

/** A run in a script with spaces: one word, then its parts if it is a compound. */
function* plainWords(run: string, start: number, stemmer: Stemmer | undefined): Generator<Word> {
  const term = termOf(joined(run), stemmer);
  if (term) yield { start, end: start + run.length, term };
  for (const part of partsOf(run)) {
    const partTerm = termOf(part.text, stemmer);
    if (partTerm && partTerm !== term) yield { start: start + part.start, end: start + part.end, term: partTerm };
  }
}

/**
 * The index terms of a text (a query, a title, a section), in order: the terms of
 * wordsOf, made faster for long texts. Each call of the segmenter has a fixed cost
 * that outweighs the segmenting of a short run, and a Japanese page has hundreds of
 * runs between its punctuation, so a text's runs without spaces are segmented in one
 * call, joined by line breaks: a word never spans a line break (Unicode word
 * boundary rules WB3a and WB3b), so each run comes out cut exactly as on its own.
 */
export function termsOf(text: string, locale: string, { parts = true, stem = true }: TermOptions = {}): string[] {
  const stemmer = stem ? stemmerOf(locale) : undefined;
  const terms: (string | number)[] = [];
  const runs: string[] = [];
  const plain = (run: string) => {
    const term = termOf(joined(run), stemmer);
    if (term) terms.push(term);
    if (!parts) return;
    for (const part of partsOf(run)) {
      const partTerm = termOf(part.text, stemmer);
      if (partTerm && partTerm !== term) terms.push(partTerm);
    }
  };
  const spaceless = (run: string) => {
    // Where this run's terms go, once the runs are segmented.
    terms.push(runs.length);
    runs.push(run);
  };
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    if (!NO_SPACES.test(run)) plain(run);
    else if (!COMPOUND_MARK.test(run)) spaceless(run);
    else for (const piece of run.matchAll(PIECES)) (NO_SPACES.test(piece[0]) ? spaceless : plain)(piece[0]);
  }
  if (runs.length === 0) return terms as string[];
  const ofRun: string[][] = runs.map(() => []);
  let run = 0;
  let runEnd = runs[0]!.length;
  let pending = '';
  let pendingRun = 0;
  const flush = () => {
    const term = pending && normaliseTerm(pending);
    if (term) ofRun[pendingRun]!.push(term);
    pending = '';
  };
  for (const { segment, index, isWordLike } of segmenter(locale).segment(runs.join('\n'))) {
    // Past the end of this run: the line break itself, then the next run.
    while (index >= runEnd) runEnd += 1 + runs[++run]!.length;
    if (!isWordLike) flush();
    // A run of katakana is one word, as in segmentRun.
    else if (pending && KATAKANA_ONLY.test(segment) && KATAKANA_ONLY.test(pending)) pending += segment;
    else {
      flush();
      pending = segment;
      pendingRun = run;
    }
  }
  flush();
  return terms.flatMap((term) => (typeof term === 'string' ? term : ofRun[term]!));
}

/** A compound's text as one word: mnemonic brackets and underscores dropped (`E[x]tract` is Extract). */
function joined(run: string): string {
  return COMPOUND_MARK.test(run) ? run.replace(/[_[\]]/g, '') : run;
}

/**
 * The parts of a compound, where they are in it: the pieces between underscores, and
 * the humps of a camel-case piece (`fooBar`, `ETag`, `HTTPServer`). A mnemonic stays in
 * its word. Parts of one letter are no words; a word that is not a compound has none.
 */
function partsOf(run: string): { start: number; end: number; text: string }[] {
  const hasUnderscore = run.includes('_');
  // Most words are in lower case: no humps, and no regular expression to run.
  if (!hasUnderscore && (run.toLowerCase() === run || !CAMEL.test(run))) return [];
  const parts: { start: number; end: number; text: string }[] = [];
  let at = 0;
  for (const piece of hasUnderscore ? run.split(/_+/) : [run]) {
    const start = run.indexOf(piece, at);
    at = start + piece.length;
    if (!piece) continue;
    if (piece.includes('[') || !CAMEL.test(piece)) parts.push({ start, end: at, text: joined(piece) });
    else
      for (const hump of piece.matchAll(CAMEL_PARTS))
        parts.push({ start: start + hump.index, end: start + hump.index + hump[0].length, text: hump[0] });
  }
  return parts.length < 2 ? [] : parts.filter((part) => [...part.text].length > 1);
}

function segmentRun(run: string, offset: number, locale: string): Word[] {
  const words: Word[] = [];
  let pending: { start: number; end: number; text: string } | null = null;
  const flush = () => {
    if (!pending) return;
    const term = normaliseTerm(pending.text);
    if (term) words.push({ start: offset + pending.start, end: offset + pending.end, term });
    pending = null;
  };
  for (const { segment, index, isWordLike } of segmenter(locale).segment(run)) {
    if (!isWordLike) {
      flush();
      continue;
    }
    // ICU's dictionary cuts katakana loanwords into pieces (リポジトリ -> リ|ポジ|トリ):
    // a run of katakana is one word, as a reader sees it.
    if (pending && KATAKANA_ONLY.test(segment) && KATAKANA_ONLY.test(pending.text)) {
      pending = { start: pending.start, end: index + segment.length, text: pending.text + segment };
      continue;
    }
    flush();
    pending = { start: index, end: index + segment.length, text: segment };
  }
  flush();
  return words;
}

/**
 * The stemmer of a locale's language, if it has one here. A stemmed language whose
 * stemmer is not loaded is an error: its terms would not be the index's.
 */
function stemmerOf(locale: string): Stemmer | undefined {
  const language = languageOf(locale);
  const stemmer = STEMMERS.get(language);
  if (!stemmer && (STEMMED_LANGUAGES as readonly string[]).includes(language))
    throw new Error(`search: the ${language} stemmer is not loaded (see src/i18n/stemmers.ts)`);
  return stemmer;
}

/** One word's index term: normalised, then stemmed where the language has a stemmer. */
function termOf(word: string, stemmer: Stemmer | undefined): string {
  const term = normaliseTerm(word);
  return term && stemmer ? stemmed(term, stemmer) : term;
}

/** A normalised term (from termsOf with `stem: false`) as the index has it: stemmed in the locale's language. */
export function stemTerm(term: string, locale: string): string {
  const stemmer = stemmerOf(locale);
  return stemmer ? stemmed(term, stemmer) : term;
}

// Only words of letters are stemmed: a stemmer's rules are about letters, and `v20` or `http2` are names.
const LETTERS = /^[\p{L}\p{M}]{3,}$/u;

function stemmed(term: string, stemmer: Stemmer): string {
  let kept = stems.get(stemmer);
  if (!kept) {
    kept = new Map();
    stems.set(stemmer, kept);
  }
  let stem = kept.get(term);
  if (stem === undefined) {
    stem = LETTERS.test(term) ? stemmer(term) || term : term;
    if (term.length <= LONGEST_KEPT) keep(() => kept.set(term, stem!), memoBytes(term, stem));
  }
  return stem;
}

// Elided articles and pronouns (French l', d', qu'..., Italian l', dell' alike) and the
// English possessive are not part of the word: `l'équipe` is found by `équipe`.
const ELISION = /^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|dell|all|dall|nell|sull)'(?=.)/;
const POSSESSIVE = /'s$/;
// Marks that do not change a word for a reader searching it: Latin diacritics (é -> e,
// Ü -> U after NFKD), Arabic harakat, superscript alef and tatweel (after Lucene's
// ArabicNormalizer). Japanese voicing marks (U+3099/309A) are not among them: が is not か.
const IGNORED_MARKS = /[\u0300-\u036f\u064b-\u065f\u0670\u0640]/g;
const FOLDED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ı: 'i',
  // Arabic: alef wasla, alef maksura and teh marbuta fold as Lucene's ArabicNormalizer does;
  // أ إ آ decompose (NFKD) to ا and a mark, and lose the mark above.
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
};
const TO_FOLD = /[ßæœøłđıٱىة]/g;
const PLAIN = /^[A-Za-z0-9]+$/;

/**
 * One word as an index term: lower case, compatibility forms unified (full-width
 * Latin, half-width kana), accents and Arabic vowel marks dropped, ß as ss, alef
 * variants as one alef, elisions and apostrophes removed. '' when nothing is left.
 * A term never holds a space: a few letters decompose into text with spaces (the
 * isolated Arabic vowel forms U+FE70-FE7E, the ligatures U+FC5E-FC63, U+FDFA,
 * U+FDFB, U+037A), and a term with spaces would be many terms to the engine.
 */
export function normaliseTerm(word: string): string {
  // Most words of most texts: nothing to unify but case (the same result, much faster).
  if (PLAIN.test(word)) return word.toLowerCase();
  // The rest (accented, Arabic, Japanese words) take two Unicode normalisations each.
  // A language's common words come back again and again (の, を, für, الذي), so each
  // word's term is kept, up to a bound in bytes: indexing Japanese goes 0.4 s faster at
  // 2,000 pages. Long words are made again rather than kept: they rarely come back, and
  // a query's are the visitor's to choose.
  let term = normalised.get(word);
  if (term === undefined) {
    term = unify(word);
    if (word.length <= LONGEST_KEPT) keep(() => normalised.set(word, term!), memoBytes(word, term));
  }
  return term;
}

/** Bytes the memo of normalised words and their stems may hold, counted as memoBytes counts them. */
export const NORMALISED_KEPT_BYTES = 4 * 1024 * 1024;
/** Longest word (UTF-16 units) whose term is kept. */
const LONGEST_KEPT = 64;
const normalised = new Map<string, string>();
/** Each stemmer's stems of normalised words, in the same budget. */
const stems = new Map<Stemmer, Map<string, string>>();
let normalisedBytes = 0;

/** Keeps one more entry (set by `add`) of `bytes`; a memo that would go over its bound starts again empty. */
function keep(add: () => void, bytes: number): void {
  if (normalisedBytes + bytes > NORMALISED_KEPT_BYTES) {
    normalised.clear();
    stems.clear();
    normalisedBytes = 0;
  }
  add();
  normalisedBytes += bytes;
}

/** What one kept word costs: its Map entry, and two strings (two bytes a unit, as V8 keeps non-Latin-1 text). */
function memoBytes(word: string, term: string): number {
  return 64 + 2 * (word.length + term.length);
}

/** The bytes the memo of normalised words holds now (for the test of its bound). */
export function normalisedMemoBytes(): number {
  return normalisedBytes;
}

function unify(word: string): string {
  let term = word.toLowerCase().normalize('NFKD').replace(IGNORED_MARKS, '');
  if (term.includes("'") || term.includes('’')) {
    term = term.replace(/’/g, "'").replace(ELISION, '').replace(POSSESSIVE, '').replace(/'/g, '');
  }
  return term
    .replace(TO_FOLD, (char) => FOLDED[char]!)
    .replace(WHITESPACE, '')
    .normalize('NFC');
}

const WHITESPACE = /\s+/gu;
