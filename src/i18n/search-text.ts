// Words and search terms, the same on the server, at build time and in the browser:
// the index is made with these functions and every query goes through them, so a
// query can only fail to match because the word is not there.
//
// Words are runs of letters, digits and marks (apostrophes inside a word kept),
// found with one regular expression: fast, and the same in every engine. Only runs
// in scripts written without spaces (Japanese, Chinese, Thai...) are split further,
// by Intl.Segmenter's dictionary.

/** A word of a text: where it is (UTF-16 offsets) and the term it stands for in the index. */
export type Word = { start: number; end: number; term: string };

const RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

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

/**
 * The words of `text`, in order. `locale` picks the segmenter's language for runs
 * without spaces. `mayContain`, when given, is asked about each such run (already
 * normalised) before it is segmented: a snippet only needs the runs that can hold
 * a matched term, and segmenting is the slow part.
 */
export function wordsOf(text: string, locale: string, mayContain?: (normalisedRun: string) => boolean): Word[] {
  return [...eachWord(text, locale, mayContain)];
}

/** wordsOf, one word at a time: a reader that needs only the first few stops early. */
export function* eachWord(text: string, locale: string, mayContain?: (normalisedRun: string) => boolean): Generator<Word> {
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    const start = match.index;
    if (!NO_SPACES.test(run)) {
      const term = normaliseTerm(run);
      if (term) yield { start, end: start + run.length, term };
      continue;
    }
    if (mayContain && !mayContain(normaliseTerm(run))) continue;
    yield* segmentRun(run, start, locale);
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
export function termsOf(text: string, locale: string): string[] {
  const terms: (string | number)[] = [];
  const runs: string[] = [];
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    if (NO_SPACES.test(run)) {
      // Where this run's terms go, once the runs are segmented.
      terms.push(runs.length);
      runs.push(run);
      continue;
    }
    const term = normaliseTerm(run);
    if (term) terms.push(term);
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
    if (word.length <= LONGEST_KEPT) {
      const bytes = memoBytes(word, term);
      if (normalisedBytes + bytes > NORMALISED_KEPT_BYTES) {
        normalised.clear();
        normalisedBytes = 0;
      }
      normalised.set(word, term);
      normalisedBytes += bytes;
    }
  }
  return term;
}

/** Bytes the memo of normalised words may hold, counted as memoBytes counts them. */
export const NORMALISED_KEPT_BYTES = 4 * 1024 * 1024;
/** Longest word (UTF-16 units) whose term is kept. */
const LONGEST_KEPT = 64;
const normalised = new Map<string, string>();
let normalisedBytes = 0;

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
