import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { type IndexedPage, options, type PageEntry, parseIndexFile, type Section } from '../../../src/routes/search/engine.ts';
import { buildSearchIndex, indexFileOf, writeSearchIndex } from '../../../src/routes/search/index-writer.ts';
import { compactIndex, readCompactIndex } from '../../../src/routes/search/compact-index.ts';
import { chunksText } from '../../../src/routes/search/utf8-chunks.ts';
import { ROOT_DIR } from '../../../src/server/config.ts';
import { loadSite } from '../../../src/server/content/site.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { indexedPages } from '../../../src/server/site/search-indexes.ts';

/** What MiniSearch's own `add` and `toJSON` make of the same pages: the reference the writer must equal. */
function miniSearchIndex(locale: string, pages: readonly IndexedPage[]): AsPlainObject {
  const entries: PageEntry[] = pages.map(({ path, title, fallback, keywords }) => ({ path, title, fallback, keywords }));
  const engine = new MiniSearch<Section>(options(locale, entries));
  let id = 0;
  pages.forEach((page, p) => {
    for (const section of page.sections) engine.add({ id: id++, p, a: section.id, h: section.heading, t: section.text });
  });
  return engine.toJSON();
}

/** The file's index with its terms in one order (a radix tree and a Map list them differently; loading ignores the order). */
function writtenIndex(locale: string, pages: readonly IndexedPage[]): AsPlainObject {
  const file = JSON.parse(buildSearchIndex(locale, pages));
  assert.deepEqual(Object.keys(file), ['v', 'locale', 'pages', 'index']);
  return sortedTerms(file.index);
}

const sortedTerms = (index: AsPlainObject): AsPlainObject => ({
  ...index,
  index: [...index.index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
});

function makePage(path: string, title: string, sections: [string, string, string][]): IndexedPage {
  return { path, title, fallback: null, sections: sections.map(([id, heading, text]) => ({ id, heading, text })) };
}

test("every locale of the default site: the written index is MiniSearch's own serialisation, term by term", () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const localesDir = join(ROOT_DIR, 'locales');
  const site = loadSite(localesDir, locales, 'en', loadMessages(localesDir, locales, 'en'));
  for (const locale of locales) {
    const pages = indexedPages(site, locale);
    const expected = sortedTerms(miniSearchIndex(locale, pages));
    assert.ok(expected.index.length > 300, `${locale}: ${expected.index.length} terms`);
    assert.deepEqual(writtenIndex(locale, pages), expected, locale);
  }
});

test('repeated words, a word in the title and the text, empty headings, keywords and text that needs escaping make the same index', () => {
  const pages = [
    makePage('/en/a', 'Cache "rules"', [
      ['', '', 'cache cache cache, then rules; a \\ backslash and a "quote"'],
      ['more', 'Cache', 'nothing else'],
    ]),
    makePage('/en/b', 'Empty', []),
    makePage('/en/c', 'Third', [['x', '', '']]),
    { ...makePage('/en/ls', 'ls', [['', '', 'Show what a folder holds.']]), keywords: ['list files', 'directory contents'] },
  ];
  assert.deepEqual(writtenIndex('en', pages), sortedTerms(miniSearchIndex('en', pages)));
  assert.deepEqual(writtenIndex('en', []), sortedTerms(miniSearchIndex('en', [])));
});

test('the compact form made from the writer is the compact form of the file it wrote, byte for byte, in every locale', () => {
  const locales = ['en', 'ar', 'de', 'fr', 'ja'];
  const localesDir = join(ROOT_DIR, 'locales');
  const site = loadSite(localesDir, locales, 'en', loadMessages(localesDir, locales, 'en'));
  const cases: [string, IndexedPage[]][] = [
    ...locales.map((locale): [string, IndexedPage[]] => [locale, indexedPages(site, locale)]),
    ['en', [makePage('/en/b', 'Empty', []), makePage('/en/c', 'Lone \ud800 surrogate', [['x', '', 'a \\ "quote"']])]],
    ['en', []],
  ];
  for (const [locale, pages] of cases) {
    const { json, compact } = writeSearchIndex(locale, pages);
    assert.deepEqual(Buffer.from(compact()), Buffer.from(compactIndex(parseIndexFile(chunksText([...json()])))), locale);
  }
});

test('the file made from a compact form is the written file but for its terms order, and loads as the same block', () => {
  const locales = ['en', 'ja', 'ar'];
  const localesDir = join(ROOT_DIR, 'locales');
  const site = loadSite(localesDir, locales, 'en', loadMessages(localesDir, locales, 'en'));
  const cases: [string, IndexedPage[]][] = [
    ...locales.map((locale): [string, IndexedPage[]] => [locale, indexedPages(site, locale)]),
    [
      'en',
      [makePage('/en/b', 'Empty', []), { ...makePage('/en/c', 'Lone \ud800 surrogate', [['x', '', 'a \\ "quote"']]), keywords: ['k w'] }],
    ],
    ['en', []],
  ];
  for (const [locale, pages] of cases) {
    const block = writeSearchIndex(locale, pages).compact();
    const made = chunksText([...indexFileOf(readCompactIndex(block))]);
    const written = buildSearchIndex(locale, pages);
    const file = JSON.parse(made);
    assert.deepEqual(
      { ...file, index: sortedTerms(file.index) },
      { ...JSON.parse(written), index: sortedTerms(JSON.parse(written).index) },
      locale,
    );
    assert.deepEqual(Buffer.from(compactIndex(parseIndexFile(made))), Buffer.from(block), locale);
  }
});
