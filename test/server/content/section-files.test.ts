import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';
import { ContentError } from '../../../src/server/content/errors.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { loadSite } from '../../../src/server/content/site.ts';

// A docs folder's _section.yml: its label per locale, its order, folded by default; and a
// mistake in one stops the build with the file and the line.

function site(sectionYml: string, extra: Record<string, string> = {}) {
  return makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/alpha.md': makePage({ title: 'Alpha', order: 1 }),
      'pages/docs/zulu.md': makePage({ title: 'Zulu', order: 3 }),
      'pages/docs/guides/_section.yml': sectionYml,
      'pages/docs/guides/install.md': makePage({ title: 'Install' }),
      'pages/docs/guides/deploy.md': makePage({ title: 'Deploy' }),
      ...extra,
    },
    de: { 'messages.json': realMessages('de'), 'pages/index.md': makePage({ title: 'Start' }) },
    fr: { 'messages.json': realMessages('fr'), 'pages/index.md': makePage({ title: 'Accueil' }) },
  });
}

/** The sidebar's top-level entries under the docs index, and each shown section's disclosure. */
function sidebar(page: string) {
  const start = page.indexOf('<nav class="docs-sidebar"');
  const html = `<body>${page.slice(start, page.indexOf('</nav>', start))}</body>`;
  const entries = bodyElements(html, (element) => element.tag === 'a' && element.attributes.class !== 'docs-all').map((a) => a.text);
  const sections = bodyElements(html, (element) => element.tag === 'details' && 'data-docs-section' in element.attributes).map(
    (details) => ({
      path: details.attributes['data-docs-section'],
      open: 'open' in details.attributes,
      collapsed: 'data-collapsed' in details.attributes,
    }),
  );
  return { entries, sections };
}

describe('a folder with a _section.yml', () => {
  let app: Awaited<ReturnType<typeof serveApp>>;
  before(async () => {
    app = await serveApp({
      LOCALES_DIR: site('label:\n  en: Guides\n  de: Anleitungen\norder: 2\ncollapsed: true\n'),
      DEFAULT_LOCALE: 'en',
    });
  });
  after(() => app.close());

  test("is labelled in each locale, the default locale's label where a locale has none, and placed by its order", async () => {
    assert.deepEqual(sidebar((await get(app.url, '/en/docs/alpha')).body).entries.slice(0, 4), ['Docs', 'Alpha', 'Guides', 'Zulu']);
    assert.deepEqual(sidebar((await get(app.url, '/de/docs/alpha')).body).entries.slice(0, 4), ['Docs', 'Alpha', 'Anleitungen', 'Zulu']);
    assert.deepEqual(sidebar((await get(app.url, '/fr/docs/alpha')).body).entries.slice(0, 4), ['Docs', 'Alpha', 'Guides', 'Zulu']);
    const page = await get(app.url, '/de/docs/guides');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1[^>]*>Anleitungen<\/h1>/);
  });

  test('collapsed: folded on its own page, open on the pages inside it; a <details> that needs no script', async () => {
    assert.deepEqual(sidebar((await get(app.url, '/en/docs/guides')).body).sections, [
      { path: '/en/docs/guides', open: false, collapsed: true },
    ]);
    assert.deepEqual(sidebar((await get(app.url, '/en/docs/guides/install')).body).sections, [
      { path: '/en/docs/guides', open: true, collapsed: false },
    ]);
  });
});

test('without collapsed, a section is open on its own page too', async () => {
  const app = await serveApp({ LOCALES_DIR: site('label: Guides\n'), DEFAULT_LOCALE: 'en' });
  try {
    assert.deepEqual(sidebar((await get(app.url, '/en/docs/guides')).body).sections, [
      { path: '/en/docs/guides', open: true, collapsed: false },
    ]);
  } finally {
    app.close();
  }
});

describe('a mistake in a _section.yml stops the build with the file and the line', () => {
  const cases: [string, RegExp][] = [
    ['label: Guides\ncolour: blue\n', /guides\/_section\.yml:2: unknown key "colour" \(known: label, order, collapsed\)/],
    ['label: Guides\norder: first\n', /guides\/_section\.yml:2: "order" must be a whole number/],
    ['collapsed: yes please\n', /guides\/_section\.yml:1: "collapsed" must be true or false/],
    ['label:\n  en: Guides\n  xx: Nope\n', /guides\/_section\.yml:3: "xx" is not one of the site's locales/],
    ['label: [Guides\n', /guides\/_section\.yml:\d+: not valid YAML/],
    ['label:\n  en: 3\n', /guides\/_section\.yml:2: the label for "en" must be text/],
  ];
  for (const [text, expected] of cases) {
    test(JSON.stringify(text), () => {
      const dir = site(text);
      const messages = loadMessages(dir, ['en', 'de', 'fr'], 'en');
      assert.throws(
        () => loadSite(dir, ['en', 'de', 'fr'], 'en', messages),
        (error: Error) => error instanceof ContentError && error.problems.some((problem) => expected.test(problem)),
      );
    });
  }
});
