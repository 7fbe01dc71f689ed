import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makePage, makeSite } from '../../helpers/content.ts';
import type { Manifest } from '../../../src/server/site/manifest.ts';
import { prepareSearch } from '../../../src/server/site/site-search.ts';

/** A development build's manifest: no index files, so the search makes its own. */
const MANIFEST = { build: 'b', js: '', css: '', criticalCss: '', icon: '', preload: [], search: {}, images: {}, chooser: null } as Manifest;

async function makeSearch() {
  const { site } = await makeSite({
    en: {
      'pages/index.md': makePage({ title: 'Home' }, 'Welcome.\n'),
      'pages/docs/caching.md': makePage({ title: 'Caching' }, 'The café keeps a cache of pages.\n'),
    },
  });
  return prepareSearch({ site, manifest: MANIFEST, distDir: '/nonexistent', built: false, maxDownloadBytes: 1 << 20 });
}

describe('search answers on the server', () => {
  test('are kept by locale and the terms searched: another spelling of a query is a lookup, not a search', async () => {
    const search = await makeSearch();
    const first = await search.search('en', 'Café cache');
    assert.ok(first.total > 0);
    assert.equal(await search.search('en', 'CAFE  cache!'), first, 'the same kept answer');
    assert.notEqual(await search.search('en', 'cache cafe'), first, 'another order is another search (the last word is a prefix)');
  });

  test('hold a bounded number of bytes, however many distinct queries come', async () => {
    const search = await makeSearch();
    await search.search('en', 'cache');
    const loaded = search.bytes();
    for (let i = 0; i < 3000; i++) await search.search('en', `cache ${'\u{FDFA}'.repeat(10)}${i} x${i}`);
    assert.ok(search.bytes() - loaded <= 2 * 1024 * 1024, `${search.bytes() - loaded} bytes of answers`);
  });
});

describe('the site search', () => {
  test("finds a page by the keywords of its front matter, and French words by their stems, as the site's content is read", async () => {
    const { site } = await makeSite({
      en: {
        'pages/index.md': makePage({ title: 'Home' }, 'Welcome.\n'),
        'pages/docs/ls.md': makePage({ title: 'ls', keywords: ['list files'] }, 'Show what a folder holds.\n'),
        'pages/docs/find.md': makePage({ title: 'find' }, 'Find files by name, and list them.\n'),
      },
      fr: {
        'pages/index.md': makePage({ title: 'Accueil' }, 'Bienvenue.\n'),
        'pages/docs/gzip.md': makePage({ title: 'gzip' }, 'Compresse un fichier.\n'),
      },
    });
    const search = prepareSearch({ site, manifest: MANIFEST, distDir: '/nonexistent', built: false, maxDownloadBytes: 1 << 20 });
    assert.equal((await search.search('en', 'list files')).hits[0]!.path, '/en/docs/ls');
    assert.equal((await search.search('fr', 'compresser')).hits[0]!.path, '/fr/docs/gzip');
  });
});
