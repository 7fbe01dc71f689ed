import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { termsOf } from '../../../src/i18n/search-text.ts';
import { pagePath } from '../../../src/routes/location.ts';
import {
  type IndexedPage,
  loadSearchIndex,
  MAX_QUERY_TERM_CHARS,
  MAX_QUERY_TERMS,
  queryTerms,
  searchIndex,
} from '../../../src/routes/search/engine.ts';
import { buildSearchIndex } from '../../../src/routes/search/index-writer.ts';
import type { Marked, SearchHit } from '../../../src/routes/types.ts';
import { ROOT_DIR } from '../../../src/server/config.ts';
import { loadSite } from '../../../src/server/content/site.ts';
import { makeIndexFiles } from '../../../src/server/site/search-indexes.ts';
import { versionOf } from '../../../src/server/content/versions.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';

/** A page for the index: a title, and sections as [id, heading, text]. */
function makePage(
  path: string,
  title: string,
  sections: [string, string, string][],
  fallback: IndexedPage['fallback'] = null,
): IndexedPage {
  return { path, title, fallback, sections: sections.map(([id, heading, text]) => ({ id, heading, text })) };
}

function makeIndex(locale: string, pages: IndexedPage[]) {
  return loadSearchIndex(buildSearchIndex(locale, pages));
}

const plain = (marked: Marked) => marked.map((part) => (part.mark ? `[${part.text}]` : part.text)).join('');
const paths = (hits: SearchHit[]) => hits.map((hit) => hit.path);

const SITE = [
  makePage('/en/docs/caching', 'Caching', [
    ['', '', 'How pages are kept.'],
    ['headers', 'Headers', 'The server sends ETag and Last-Modified.'],
  ]),
  makePage('/en/docs/headers', 'Security', [
    ['', '', 'Every response gets the same security settings.'],
    ['caching-rules', 'Caching rules', 'Assets are immutable.'],
  ]),
  makePage('/en/blog/post', 'A post', [['', '', 'We talk about caching, once, and about routing.']]),
  makePage('/en/docs/routing', 'Routing', [
    ['', '', 'Locales and slugs.'],
    ['redirects', 'Redirects', 'A canonical redirect is permanent.'],
  ]),
];

describe('ranking', () => {
  test('a word in the title ranks above the same word in a heading, which ranks above the text', () => {
    const { hits } = searchIndex(makeIndex('en', SITE), 'caching', 10);
    assert.deepEqual(paths(hits), ['/en/docs/caching', '/en/docs/headers#caching-rules', '/en/blog/post']);
  });

  test('a page with every word of the query ranks above pages with only some', () => {
    const { hits, total } = searchIndex(makeIndex('en', SITE), 'caching routing', 10);
    assert.equal(total, 4);
    assert.equal(hits[0]!.path, '/en/blog/post');
  });

  test('the result goes to the section where the words are, and a title-only match to the top of the page', () => {
    const index = makeIndex('en', SITE);
    assert.equal(searchIndex(index, 'canonical', 10).hits[0]!.path, '/en/docs/routing#redirects');
    const titleOnly = searchIndex(index, 'security', 10).hits[0]!;
    assert.equal(titleOnly.path, '/en/docs/headers');
    assert.equal(titleOnly.heading, null);
  });

  test('the total counts pages, and `limit` caps the hits', () => {
    const { hits, total } = searchIndex(makeIndex('en', SITE), 'caching', 2);
    assert.equal(total, 3);
    assert.equal(hits.length, 2);
  });
});

describe('matching', () => {
  test('the last word matches as a prefix, the others only whole', () => {
    const index = makeIndex('en', SITE);
    assert.deepEqual(paths(searchIndex(index, 'redir', 10).hits), ['/en/docs/routing#redirects']);
    assert.deepEqual(paths(searchIndex(index, 'redir canonical', 10).hits), ['/en/docs/routing#redirects']);
    assert.equal(searchIndex(index, 'redir canonical', 10).hits[0]!.snippet.filter((part) => part.mark).length, 1);
  });

  test('a one-letter last word is not expanded (it would match most of the index)', () => {
    assert.equal(searchIndex(makeIndex('en', SITE), 'c', 10).total, 0);
  });

  test('an empty or punctuation-only query finds nothing', () => {
    const index = makeIndex('en', SITE);
    assert.deepEqual(searchIndex(index, '', 10), { total: 0, hits: [] });
    assert.deepEqual(searchIndex(index, ' ?! — ', 10), { total: 0, hits: [] });
  });

  test('accents, case and ß: strasse finds Straße, Uberblick finds Überblick', () => {
    const index = makeIndex('de', [
      makePage('/de/a', 'Anfahrt', [['', '', 'Die Hauptstraße ist gesperrt, nehmen Sie die Straße am Fluss.']]),
      makePage('/de/b', 'Überblick', [['', '', 'Alles auf einen Blick.']]),
    ]);
    const strasse = searchIndex(index, 'strasse', 10).hits[0]!;
    assert.equal(strasse.path, '/de/a');
    assert.match(plain(strasse.snippet), /\[Straße\]/);
    assert.equal(searchIndex(index, 'UBERBLICK', 10).hits[0]!.path, '/de/b');
  });

  test('Arabic without vowel marks finds the text with them, and the alef variants find each other', () => {
    const index = makeIndex('ar', [makePage('/ar/a', 'مقدمة', [['', '', 'إِنَّ الخادمَ يُرسِلُ أحمدَ إلى المكتبة']])]);
    for (const query of ['ان', 'الخادم', 'احمد', 'المكتبه']) assert.equal(searchIndex(index, query, 10).total, 1, query);
  });

  test('one Japanese word finds the page that has it in mid-sentence', () => {
    const index = makeIndex('ja', [
      makePage('/ja/a', '導入', [['', '', 'このガイドでは、リポジトリを手元に用意してから設定ファイルを確認します。']]),
      makePage('/ja/b', '別のページ', [['', '', '関係のない文章です。']]),
    ]);
    for (const query of ['リポジトリ', '設定', 'ファイル', '確認', 'リポ'])
      assert.deepEqual(paths(searchIndex(index, query, 10).hits), ['/ja/a'], query);
    assert.match(plain(searchIndex(index, '設定', 10).hits[0]!.snippet), /\[設定\]ファイル/);
  });

  test('a page served from the default locale is found and marked with its language', () => {
    const index = makeIndex('ja', [
      makePage('/ja/docs/docker', 'Docker', [['', '', 'Build the image.']], { lang: 'en', language: '英語' }),
    ]);
    assert.deepEqual(searchIndex(index, 'image', 10).hits[0]!.fallback, { lang: 'en', language: '英語' });
  });
});

describe('stems and compounds', () => {
  test('fr: "compresser" finds the pages that say Compresse, compression and compressés, and marks those words', () => {
    const index = makeIndex('fr', [
      makePage('/fr/gzip', 'gzip', [['', '', 'Compresse un fichier.']]),
      makePage('/fr/zstd', 'zstd', [['', '', 'Une compression rapide.']]),
      makePage('/fr/tar', 'tar', [['', '', 'Archive des fichiers compressés.']]),
      makePage('/fr/ls', 'ls', [['', '', 'Liste les fichiers.']]),
    ]);
    const { hits, total } = searchIndex(index, 'compresser', 10);
    assert.equal(total, 3);
    assert.deepEqual(hits.map((hit) => plain(hit.snippet)).sort(), [
      'Archive des fichiers [compressés].',
      'Une [compression] rapide.',
      '[Compresse] un fichier.',
    ]);
  });

  test('a word cut short while typing finds the word it begins, also where the stem is shorter than what was typed', () => {
    const index = makeIndex('en', [makePage('/en/a', 'A', [['', '', 'Information about extracting archives.']])]);
    for (const typed of ['inform', 'informat', 'informatio', 'extrac', 'extracti', 'archiv'])
      assert.equal(searchIndex(index, typed, 10).total, 1, typed);
    assert.equal(searchIndex(index, 'informat other', 10).total, 0, 'only the last word is a prefix');
  });

  test('"extract tar archive" puts the page about tar, which says E[x]tract, first', () => {
    const index = makeIndex('en', [
      makePage('/en/zip', 'zip', [['', '', 'Package and compress (archive) files into a zip archive. [a]dd files to an archive.']]),
      makePage('/en/tar', 'tar', [['', '', 'Archiving utility. E[x]tract an archive into the current directory: tar xf source.tar']]),
      makePage('/en/unzip', 'unzip', [['', '', 'Extract files from a zip archive.']]),
    ]);
    assert.equal(searchIndex(index, 'extract tar archive', 10).hits[0]!.path, '/en/tar');
    assert.match(plain(searchIndex(index, 'extract', 10).hits.find((hit) => hit.path === '/en/tar')!.snippet), /\[E\[x\]tract\]/);
  });

  test('foo_bar and fooBar are found by their parts and whole, in any spelling', () => {
    const index = makeIndex('en', [
      makePage('/en/a', 'A', [['', '', 'Set RENDER_CACHE to off.']]),
      makePage('/en/b', 'B', [['', '', 'Call renderCache() first.']]),
    ]);
    for (const query of ['render cache', 'render_cache', 'renderCache', 'RENDERCACHE', 'cache', 'render'])
      assert.deepEqual(paths(searchIndex(index, query, 10).hits).sort(), ['/en/a', '/en/b'], query);
    assert.equal(plain(searchIndex(index, 'cache', 10).hits.find((hit) => hit.path === '/en/b')!.snippet), 'Call render[Cache]() first.');
  });
});

describe('keywords', () => {
  test('"list files" finds the page about ls by the keywords its author gave it, first, without showing them', () => {
    const pages = [
      makePage('/en/find', 'find', [['', '', 'Find files by name. Lists the files that match.']]),
      makePage('/en/tree', 'tree', [['', '', 'Show the contents of a folder as a tree: files and their list.']]),
      makePage('/en/ls', 'ls', [['', '', 'Show what a folder holds.']]),
    ];
    const without = makeIndex('en', pages);
    assert.notEqual(searchIndex(without, 'list files', 10).hits[0]?.path, '/en/ls');
    const index = makeIndex('en', [pages[0]!, pages[1]!, { ...pages[2]!, keywords: ['list files', 'directory contents'] }]);
    const hit = searchIndex(index, 'list files', 10).hits[0]!;
    assert.equal(hit.path, '/en/ls');
    assert.equal(plain(hit.title), 'ls');
    assert.equal(plain(hit.snippet), 'Show what a folder holds.');
    assert.equal(searchIndex(index, 'directory', 10).hits[0]!.path, '/en/ls');
  });
});

describe('snippets', () => {
  test('matched words are marked in the title, the heading and the snippet, as text parts', () => {
    const hit = searchIndex(makeIndex('en', SITE), 'caching', 10).hits[1]!;
    assert.equal(plain(hit.title), 'Security');
    assert.equal(plain(hit.heading!), '[Caching] rules');
    const index = makeIndex('en', [makePage('/p', 'P', [['', '', '<b>caching</b> & more']])]);
    assert.deepEqual(searchIndex(index, 'caching', 1).hits[0]!.snippet, [
      { text: '<b>', mark: false },
      { text: 'caching', mark: true },
      { text: '</b> & more', mark: false },
    ]);
  });

  test('a long text is cut around the first match, at word boundaries, with ellipses', () => {
    const text = `${'alpha '.repeat(40)}needle ${'omega '.repeat(60)}`.trim();
    const snippet = plain(searchIndex(makeIndex('en', [makePage('/p', 'P', [['', '', text]])]), 'needle', 1).hits[0]!.snippet);
    assert.match(snippet, /^… alpha .*\[needle\] omega .* …$/);
    assert.ok(snippet.length < 200, snippet);
    assert.doesNotMatch(snippet, /\b(alph|lpha|omeg|mega)\b/);
  });
});

test('an index round-trips through its file: the loaded index gives the same results as the one built', () => {
  const json = buildSearchIndex('en', SITE);
  assert.equal(buildSearchIndex('en', SITE), json, 'the same content makes the same bytes (and so the same hashed name)');
  assert.deepEqual(
    searchIndex(loadSearchIndex(json), 'cach rout', 10),
    searchIndex(loadSearchIndex(JSON.stringify(JSON.parse(json))), 'cach rout', 10),
  );
  assert.throws(() => loadSearchIndex(JSON.stringify({ ...JSON.parse(json), v: 99 })), /format 99/);
});

describe('what a query makes the engine walk', () => {
  test('at most 12 distinct terms and 256 characters, counted after normalisation', () => {
    for (const query of [
      // One "word" of 255 characters that decomposes into 128 words under NFKD.
      `a${'\u{FE70}a'.repeat(127)}`,
      // Each U+FDFA decomposes into 18 characters: 256 of them, one word.
      '\u{FDFA}'.repeat(256),
      `${'\u{FDFA}'.repeat(10)} ${'\u{FDFB}'.repeat(10)} ${'\u{FC5E}b'.repeat(50)}`,
      Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '),
    ]) {
      const terms = queryTerms(query, 'ar');
      assert.ok(terms.length <= MAX_QUERY_TERMS, `${terms.length} terms`);
      assert.ok(terms.join('').length <= MAX_QUERY_TERM_CHARS, `${terms.join('').length} characters`);
      assert.ok(
        terms.every((term) => !/\s/u.test(term)),
        'no term holds a space',
      );
    }
  });

  test('the words past the caps are left out, the first ones still found', () => {
    const index = makeIndex('en', SITE);
    const many = `caching ${Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')} routing`;
    assert.deepEqual(queryTerms(many, 'en').slice(0, 2), ['cach', 'w0']);
    assert.equal(queryTerms(many, 'en').length, MAX_QUERY_TERMS);
    assert.deepEqual(paths(searchIndex(index, many, 10).hits), paths(searchIndex(index, 'caching', 10).hits));
  });

  test('a word whose decomposition has spaces finds the same word in a page', () => {
    const index = makeIndex('ar', [makePage('/ar/x', 'x', [['', '', `a${'\u{FE70}'}b c`]])]);
    assert.equal(searchIndex(index, `a${'\u{FE70}'}b`, 10).total, 1);
    assert.equal(searchIndex(index, `a${'\u{FE70}a'.repeat(127)}`, 10).total, 0);
  });
});

describe('the default site', () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const site = loadSite(join(ROOT_DIR, 'locales'), locales, 'en', loadMessages(join(ROOT_DIR, 'locales'), locales, 'en'));
  const indexes = new Map(makeIndexFiles(site).map((file) => [file.locale, loadSearchIndex(file.json)]));

  test("every Japanese word of every Japanese page, searched alone, finds that page in its docs version's index", () => {
    let checked = 0;
    for (const page of site.pages.get('ja')!.values()) {
      if (page.contentLocale !== 'ja') continue;
      const version = versionOf(site.versions, page.key);
      const index = indexes.get(version && !version.latest ? `ja@${version.name}` : 'ja')!;
      const path = pagePath('ja', page.localPath);
      const words = new Set(page.sections.flatMap((section) => termsOf(`${section.heading} ${section.text}`, 'ja')));
      for (const word of words) {
        if (!/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u.test(word) || [...word].length < 2) continue;
        const found = searchIndex(index, word, 1000).hits.map((hit) => hit.path.split('#')[0]);
        assert.ok(found.includes(path), `${word} finds ${path}`);
        checked++;
      }
    }
    assert.ok(checked > 500, `${checked} words checked`);
  });

  test("an untranslated page is in its locale's index, marked, linking to the page in that locale", () => {
    const hit = searchIndex(indexes.get('ja')!, 'Dockerfile', 10).hits.find((found) => found.path.startsWith('/ja/docs/deploy/docker'));
    assert.ok(hit, 'the English docker page is found in ja');
    assert.deepEqual(hit.fallback, { lang: 'en', language: '英語' });
  });

  test('Uberblick finds Überblick in de, negociation finds négociation in fr', () => {
    assert.ok(searchIndex(indexes.get('de')!, 'Uberblick', 10).total > 0);
    const fr = searchIndex(indexes.get('fr')!, 'negociation', 10);
    assert.ok(fr.total > 0);
    assert.match(plain(fr.hits[0]!.snippet), /\[négociation\]/);
  });
});
