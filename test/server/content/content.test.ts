import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSite, keyOf } from '../../../src/server/content/site.ts';
import type { ContentError } from '../../../src/server/content/errors.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { MESSAGES, makeLocales, makePage } from '../../helpers/content.ts';

/** The site compiled from a locales folder, the first locale the default. */
function compile(dir: string, locales: string[]) {
  return loadSite(dir, locales, locales[0]!, loadMessages(dir, locales, locales[0]!));
}

test('nested folders are nested slugs and index.md is the folder page', () => {
  assert.equal(keyOf('index.md'), '');
  assert.equal(keyOf('docs/index.md'), 'docs');
  assert.equal(keyOf('docs/deploy/heroku.md'), 'docs/deploy/heroku');
});

test('raw HTML in Markdown is escaped, not passed through', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({}, '<script>alert(1)</script>\n\nHi <b>there</b>\n') } });
  const html = compile(dir, ['en']).pages.get('en')!.get('')!.html();
  assert.doesNotMatch(html, /<script>|<b>/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('javascript: links are not rendered as links', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({}, '[x](javascript:alert(1))\n') } });
  const html = compile(dir, ['en']).pages.get('en')!.get('')!.html();
  assert.doesNotMatch(html, /href="javascript/);
});

test('internal links get the page locale prefix', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({}, '[Docs](/docs#intro) and [home](/)\n'), 'pages/docs/index.md': makePage({}, '## Intro\n') },
    de: { 'pages/index.md': makePage({}, '[Doku](/docs)\n') },
  });
  const site = compile(dir, ['en', 'de']);
  assert.match(site.pages.get('en')!.get('')!.html(), /href="\/en\/docs#intro".*href="\/en"/);
  assert.match(site.pages.get('de')!.get('')!.html(), /href="\/de\/docs"/);
});

test('a link to a page that exists in no locale fails with the file and line', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({}, 'Intro.\n\nSee [nowhere](/docs/nowhere).\n') } });
  assert.throws(
    () => compile(dir, ['en']),
    (error: ContentError) => /en\/pages\/index\.md:7: link to \/docs\/nowhere, a page that exists in no locale/.test(error.message),
  );
});

test('a link to a page that exists only in another locale is fine', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({}, '[x](/only-de)\n') },
    de: { 'pages/only-de.md': makePage() },
  });
  assert.doesNotThrow(() => compile(dir, ['en', 'de']));
});

test('bad front matter fails with the file and a reason', () => {
  for (const [text, reason] of [
    ['no front matter', /missing front matter/],
    ['---\ntitle: [unclosed\n---\nx', /not valid YAML/],
    ['---\ntitle: T\n---\nx', /needs "description"/],
    ['---\ntitle: T\ndescription: D\ntitel: typo\n---\n', /unknown key "titel"/],
    ['---\ntitle: T\ndescription: D\ndate: "14.09.2026"\n---\n', /YYYY-MM-DD/],
  ] as const) {
    const dir = makeLocales({ en: { 'pages/about.md': text } });
    assert.throws(
      () => compile(dir, ['en']),
      (error: Error) => /about\.md:\d+(:\d+)?: /.test(error.message) && reason.test(error.message),
    );
  }
});

test('a page missing in a locale is served from the default locale, with links kept in the reader locale', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage(), 'pages/docs/index.md': makePage({ title: 'Docs' }, '[home](/)\n') },
    ja: { 'pages/index.md': makePage() },
  });
  const site = compile(dir, ['en', 'ja']);
  const page = site.pages.get('ja')!.get('docs')!;
  assert.equal(page.contentLocale, 'en');
  assert.equal(page.title, 'Docs');
  assert.match(page.html(), /href="\/ja"/);
  assert.deepEqual(site.translations.get('docs'), ['en']);
});

test('pages carry their headings, and the boxes and anchors are named in the language of the text', () => {
  const body = '## Start\n\n| a |\n|---|\n| 1 |\n';
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({}, body), 'pages/about.md': makePage({}, body) },
    de: {
      'pages/index.md': makePage({}, body),
      'messages.json': { ...MESSAGES, 'content.table': 'Tabelle {number}', 'content.headingLink': 'Link zu {heading}' },
    },
  });
  const site = compile(dir, ['en', 'de']);
  const home = site.pages.get('de')!.get('')!;
  assert.deepEqual(home.headings(), [{ id: 'start', text: 'Start', level: 2 }]);
  assert.match(home.html(), /aria-label="Link zu Start"/);
  assert.match(home.html(), /aria-label="Tabelle 1"/);
  // Untranslated, served from English: the labels follow the text (its article is lang="en").
  const about = site.pages.get('de')!.get('about')!;
  assert.match(about.html(), /aria-label="Link to Start"/);
  assert.match(about.html(), /aria-label="Table 1"/);
});

test('internal links are rewritten to the localized path of each locale, with the fragment and query kept', () => {
  const dir = makeLocales({
    en: {
      'pages/index.md': makePage({}, '[About](/about#team) [Install](/docs/guides/install?v=2#steps)\n'),
      'pages/about.md': makePage({}, '## Team\n'),
      'pages/docs/guides/index.md': makePage(),
      'pages/docs/guides/install.md': makePage({}, '## Steps\n'),
    },
    de: {
      'pages/index.md': makePage({}, '[Über](/about#team) [Installieren](/docs/guides/install?v=2#steps)\n'),
      'pages/about.md': makePage({ slug: 'ueber-uns' }, '## Das Team {#team}\n'),
      'pages/docs/guides/index.md': makePage({ slug: 'anleitungen' }),
    },
    ja: { 'pages/about.md': makePage({ slug: '概要' }, '## チーム {#team}\n') },
  });
  const site = compile(dir, ['en', 'de', 'ja']);
  assert.match(site.pages.get('en')!.get('')!.html(), /href="\/en\/about#team".*href="\/en\/docs\/guides\/install\?v=2#steps"/);
  // German: its own slug, and an untranslated child under the localized folder.
  assert.match(site.pages.get('de')!.get('')!.html(), /href="\/de\/ueber-uns#team".*href="\/de\/docs\/anleitungen\/install\?v=2#steps"/);
  // Japanese serves the English home (a fallback): its links go to the Japanese paths, encoded.
  assert.match(site.pages.get('ja')!.get('')!.html(), /href="\/ja\/%E6%A6%82%E8%A6%81#team"/);
});

test('a slug conflict is reported with the file and the line of its slug', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage(), 'pages/a.md': makePage(), 'pages/b.md': makePage() },
    de: { 'pages/a.md': makePage({ slug: 'b/c' }) },
  });
  assert.throws(
    () => compile(dir, ['en', 'de']),
    (error: ContentError) => /de\/pages\/a\.md:4: slug "b\/c" holds "\/" where only one segment is allowed/.test(error.message),
  );
});

test("compiling some locales reads only theirs and the default locale's sources: another locale's broken page is that locale's problem", () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/about.md': makePage({ title: 'About' }) },
    de: { 'pages/index.md': makePage({ title: 'Start' }) },
    fr: { 'pages/index.md': '---\ntitle: [unclosed\n---\nTexte.\n', 'pages/about.md': makePage({ title: 'À propos' }) },
  });
  const locales = ['en', 'de', 'fr'];
  const messages = loadMessages(dir, locales, 'en');
  const de = loadSite(dir, locales, 'en', messages, { serving: ['de'] });
  assert.deepEqual([...de.pages.get('de')!.keys()].sort(), ['', 'about'], "de's own page and the default locale's fallback");
  assert.equal(de.pages.get('fr')!.size, 0, 'fr is not compiled');
  assert.deepEqual(de.translations.get('about'), ['en', 'fr'], 'yet its pages count as translations');
  assert.throws(
    () => loadSite(dir, locales, 'en', messages, { serving: ['fr'] }),
    (error: ContentError) => error.problems.some((problem) => problem.includes('fr/pages/index.md')),
  );
});

test('a file whose name no URL can reach stops the build, naming the file', () => {
  for (const name of ['..md', '.md', 'docs/...md']) {
    const dir = makeLocales({ en: { 'pages/index.md': makePage(), [`pages/${name}`]: makePage() } });
    assert.throws(
      () => compile(dir, ['en']),
      (error: ContentError) => error.message.includes(`en/pages/${name}: `) && /no URL can reach it/.test(error.message),
      name,
    );
  }
});

test("a file or folder named ~ stops the build, naming the file: the segment names a section's numbered pages", () => {
  for (const name of ['docs/big/~.md', 'docs/big/~/2.md']) {
    const dir = makeLocales({ en: { 'pages/index.md': makePage(), 'pages/docs/big/index.md': makePage(), [`pages/${name}`]: makePage() } });
    assert.throws(
      () => compile(dir, ['en']),
      (error: ContentError) =>
        error.message.includes(`en/pages/${name}: `) && /the segment "~", which names a section's numbered pages/.test(error.message),
      name,
    );
  }
});

test('a page’s description is its text: Markdown in front matter is stripped', () => {
  const description = '`tar`: archive **files**, see [the guide](/docs/x).';
  const dir = makeLocales({ en: { 'pages/index.md': makePage({ description }) } });
  assert.equal(compile(dir, ['en']).pages.get('en')!.get('')!.description, 'tar: archive files, see the guide.');
});
