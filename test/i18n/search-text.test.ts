import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import '../../src/i18n/all-stemmers.ts';
import { NORMALISED_KEPT_BYTES, normalisedMemoBytes, normaliseTerm, termsOf, wordsOf } from '../../src/i18n/search-text.ts';

// The memory test measures the heap after a full collection.
setFlagsFromString('--expose-gc');

/** Both spellings give the same index term. */
function same(locale: string, a: string, b: string) {
  assert.deepEqual(termsOf(a, locale), termsOf(b, locale), `${a} ~ ${b}`);
}

describe('normalising: case, accents and spellings a reader treats as one', () => {
  for (const [locale, typed, written] of [
    ['de', 'Uberblick', 'Überblick'],
    ['de', 'strasse', 'Straße'],
    ['de', 'STRASSE', 'STRAẞE'],
    ['fr', 'negociation', 'négociation'],
    ['fr', 'Ecole', 'École'],
    ['fr', 'oeuvre', 'œuvre'],
    ['fr', 'equipe', "l'équipe"],
    ['fr', 'equipe', 'l’équipe'],
    ['fr', 'hopital', 'hôpital'],
    ['en', 'polysite', "polysite's"],
    ['en', 'cafe', 'Café'],
    ['ja', 'api', 'ＡＰＩ'],
    ['ja', 'カタカナ', 'ｶﾀｶﾅ'],
  ] as const) {
    test(`${locale}: "${typed}" finds "${written}"`, () => same(locale, typed, written));
  }

  test('ar: harakat and tatweel are dropped', () => {
    same('ar', 'كتب', 'كَتَبَ');
    same('ar', 'مرحبا', 'مرحـــبا');
    same('ar', 'السلام', 'السَّلَامُ');
  });

  test('ar: the alef variants أ إ آ ٱ are one alef', () => {
    for (const variant of ['أحمد', 'إحمد', 'آحمد', 'ٱحمد']) same('ar', 'احمد', variant);
  });

  test('ar: alef maksura and teh marbuta fold as a search engine folds them', () => {
    same('ar', 'مستشفي', 'مستشفى');
    same('ar', 'مكتبه', 'مكتبة');
  });

  test('ja: voiced kana stay distinct from unvoiced (が is not か)', () => {
    assert.notDeepEqual(termsOf('が', 'ja'), termsOf('か', 'ja'));
  });

  test('hyphens separate words; a compound is indexed whole and by its parts, so RENDER_CACHE is found by "render cache"', () => {
    assert.deepEqual(termsOf('RENDER_CACHE', 'en', { stem: false }), ['rendercache', 'render', 'cache']);
    assert.deepEqual(termsOf('multi-word', 'en', { stem: false }), ['multi', 'word']);
  });

  test('punctuation and symbols are no words', () => {
    assert.deepEqual(termsOf('— … « » () !? ـــ', 'fr'), []);
    assert.equal(normaliseTerm('ـــ'), '');
  });
});

describe('segmenting: scripts written without spaces are cut into words', () => {
  test('ja: a sentence becomes its words, with Latin words inside kept whole', () => {
    const terms = termsOf('このガイドでは、polysite のリポジトリを手元に用意します。', 'ja');
    for (const word of ['ガイド', 'polysite', 'リポジトリ', '手元', '用意'])
      assert.ok(terms.includes(word), `${word} in ${terms.join('|')}`);
  });

  test('ja: a katakana word is one term, not the pieces the dictionary cuts it into', () => {
    assert.deepEqual(termsOf('リポジトリ', 'ja'), ['リポジトリ']);
    assert.deepEqual(termsOf('インストール', 'ja'), ['インストール']);
  });

  test('ja: a word alone is segmented as it is inside a sentence', () => {
    for (const word of ['設定', '配信', 'ビルド', 'サーバー']) {
      const inside = termsOf(`サイトの${word}を確認します`, 'ja');
      for (const term of termsOf(word, 'ja')) assert.ok(inside.includes(term), `${word}: ${term} in ${inside.join('|')}`);
    }
  });

  test('zh: Chinese in mid-paragraph is cut into words too', () => {
    const terms = termsOf('我们的服务器支持多种语言', 'zh');
    assert.ok(terms.length > 2, terms.join('|'));
    assert.ok(terms.includes('服务器') || terms.includes('服务'), terms.join('|'));
  });

  test("a text's runs segmented together give the terms each run gives alone, in order", () => {
    // termsOf segments all of a text's runs in one call; wordsOf (snippets) one run at a time.
    const texts = [
      'このガイドでは、polysite のリポジトリを手元に用意します。次にサーバー・インストール、そしてビルド。',
      'カタカナ、カタカナ。リポジトリ「サーバー」とコンテンツ',
      'Node.js 20 と npm 11 が必要です（v20.20）。設定ファイルを読む',
      '我们的服务器支持多种语言，以及 Thai: ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรค',
      'Mixed ASCII only, no runs without spaces at all',
      '',
    ];
    for (const text of texts)
      for (const locale of ['ja', 'zh', 'th', 'en'])
        assert.deepEqual(
          termsOf(text, locale),
          wordsOf(text, locale).map((word) => word.term),
          `${locale}: ${text}`,
        );
    // Two katakana runs with punctuation between them stay two words.
    assert.deepEqual(termsOf('カタカナ、カタカナ', 'ja'), ['カタカナ', 'カタカナ']);
  });

  test('words carry their place in the original text, for marking', () => {
    const text = 'Voir l’équipe à Paris';
    const words = wordsOf(text, 'fr');
    assert.deepEqual(
      words.map((word) => [text.slice(word.start, word.end), word.term]),
      [
        ['Voir', 'voir'],
        ['l’équipe', 'equip'],
        ['à', 'a'],
        ['Paris', 'paris'],
      ],
    );
    const ja = '設定ファイルを読む';
    assert.deepEqual(
      wordsOf(ja, 'ja').map((word) => ja.slice(word.start, word.end)),
      ['設定', 'ファイル', 'を', '読む'],
    );
  });
});

describe('stemming: a word finds the other forms of it, in the languages with a stemmer', () => {
  for (const [locale, typed, written] of [
    ['fr', 'compresser', 'Compresse'],
    ['fr', 'compresser', 'compression'],
    ['fr', 'compresser', 'compressés'],
    ['fr', 'fichier', 'fichiers'],
    ['en', 'extracting', 'extract'],
    ['en', 'files', 'file'],
    ['en', 'caching', 'cached'],
    ['de', 'Dateien', 'Datei'],
    ['es', 'archivos', 'archivo'],
    ['ar', 'الملفات', 'ملف'],
    ['ar', 'خادم', 'الخادم'],
  ] as const) {
    test(`${locale}: "${typed}" and "${written}" are one term`, () => same(locale, typed, written));
  }

  test('a language without a stemmer keeps its words whole, and names with digits are never stemmed', () => {
    assert.deepEqual(termsOf('files', 'ja'), ['files']);
    assert.deepEqual(termsOf('ファイル', 'ja'), ['ファイル']);
    assert.deepEqual(termsOf('http2 v20s', 'en'), ['http2', 'v20s']);
  });

  test("stem: false gives the normalised words (a query's last word, still being typed)", () => {
    assert.deepEqual(termsOf('Compressés', 'fr', { stem: false }), ['compresses']);
  });
});

describe('compound words: indexed whole and by their parts', () => {
  test('a mnemonic letter in brackets is part of its word: E[x]tract is extract, [c]reate is create', () => {
    assert.deepEqual(termsOf('E[x]tract [c]reate [v]erbose', 'en', { stem: false }), ['extract', 'create', 'verbose']);
    assert.deepEqual(termsOf('**bold**er', 'en', { stem: false }), ['bold', 'er'], 'Markdown markup in a word is no mnemonic');
    assert.deepEqual(
      termsOf('array[i] and [1]', 'en', { stem: false }),
      ['array', 'i', 'and', '1'],
      'an index or a reference is no mnemonic',
    );
  });

  test('snake_case and camelCase are found whole and by their parts', () => {
    assert.deepEqual(termsOf('foo_bar', 'en', { stem: false }), ['foobar', 'foo', 'bar']);
    assert.deepEqual(termsOf('fooBar', 'en', { stem: false }), ['foobar', 'foo', 'bar']);
    assert.deepEqual(termsOf('ETag HTTPServer', 'en', { stem: false }), ['etag', 'tag', 'httpserver', 'http', 'server']);
    assert.deepEqual(termsOf('Straße HTML iPhone', 'de', { stem: false }), ['strasse', 'html', 'iphone', 'phone']);
  });

  test("a query's compound is looked up whole: foo_bar, fooBar and foobar are one search", () => {
    for (const query of ['foo_bar', 'fooBar', 'FOOBAR']) assert.deepEqual(termsOf(query, 'en', { parts: false }), ['foobar'], query);
  });

  test('the parts of a compound are words of their own for marking, inside the compound', () => {
    const text = 'Set render_cache or renderCache.';
    assert.deepEqual(
      wordsOf(text, 'en').map((word) => [text.slice(word.start, word.end), word.term]),
      [
        ['Set', 'set'],
        ['render_cache', 'rendercach'],
        ['render', 'render'],
        ['cache', 'cach'],
        ['or', 'or'],
        ['renderCache', 'rendercach'],
        ['render', 'render'],
        ['Cache', 'cach'],
      ],
    );
  });
});

describe('letters that decompose into text with spaces', () => {
  // Each decomposes (NFKD) into a space and marks, or into words: U+FE70-FE7E, U+FC5E-FC63, U+FDFA, U+FDFB, U+037A.
  const SPREADING = ['\u{FE70}', '\u{FE72}', '\u{FE7E}', '\u{FC5E}', '\u{FC63}', '\u{FDFA}', '\u{FDFB}', '\u{037A}'];

  test('make one term, never a term with spaces (the engine would walk each piece)', () => {
    for (const letter of SPREADING) {
      const terms = termsOf(`a${letter}a`, 'ar');
      assert.equal(terms.length, 1, `a${letter}a is one word`);
      assert.doesNotMatch(terms[0]!, /\s/u, `U+${letter.codePointAt(0)!.toString(16)} leaves no space in its term`);
    }
  });

  test('a word of 128 letters with 127 isolated fathatan between them is one term', () => {
    const terms = termsOf(`a${'\u{FE70}a'.repeat(127)}`, 'en');
    assert.deepEqual(terms, ['a'.repeat(128)]);
  });
});

describe('the memo of normalised words', () => {
  test('holds a bounded number of bytes, however many distinct long words are normalised', () => {
    // Each word (45 units) decomposes into about 600 characters: the memo once kept 50,000 of them (over 60 MB).
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 50_000; i++) normaliseTerm(`${'\u{FDFA}'.repeat(40)}${i.toString(36).padStart(5, 'a')}`);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(grown < 2 * NORMALISED_KEPT_BYTES, `the heap grew by ${(grown / 1e6).toFixed(1)} MB`);
    assert.ok(normalisedMemoBytes() <= NORMALISED_KEPT_BYTES);
  });
});
