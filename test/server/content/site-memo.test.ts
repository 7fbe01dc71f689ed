import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES, makeLocales, makePage } from '../../helpers/content.ts';
import { ContentError } from '../../../src/server/content/errors.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { createSiteMemo, loadSite, type SiteMemo } from '../../../src/server/content/site.ts';

/**
 * The dev server's memo (`loadSite` with `memo`): a page is compiled again when its own
 * source changes or when one of its links would resolve differently, and only then.
 */

/** A site where the guide links to the install page, and the about page links to nothing. */
function siteWithLinks() {
  return makeLocales({
    en: {
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/install.md': makePage({ title: 'Install' }, '## Steps {#steps}\n'),
      'pages/docs/guide.md': makePage({ title: 'Guide' }, 'See [install](./install.md#steps).\n'),
      'pages/about.md': makePage({ title: 'About' }, 'No links.\n'),
    },
    de: {
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/docs/install.md': makePage({ title: 'Installieren', slug: 'installieren' }, '## Schritte {#steps}\n'),
    },
  });
}

function load(dir: string, memo: SiteMemo) {
  return loadSite(dir, ['en', 'de'], 'en', loadMessages(dir, ['en', 'de'], 'en'), { memo });
}

test('a page added elsewhere leaves every other compiled page as it was', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  const before = load(dir, memo);
  writeFileSync(join(dir, 'en/pages/docs/new.md'), makePage({ title: 'New' }));
  const after = load(dir, memo);
  assert.ok(after.pages.get('en')!.has('docs/new'));
  for (const locale of ['en', 'de'])
    for (const [key, page] of before.pages.get(locale)!)
      assert.equal(after.pages.get(locale)!.get(key), page, `${locale} ${key} compiled again`);
});

test('a renamed link target recompiles the pages that link to it, and only those', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  const before = load(dir, memo);
  assert.match(before.pages.get('de')!.get('docs/guide')!.html(), /href="\/de\/docs\/installieren#steps"/);
  writeFileSync(join(dir, 'de/pages/docs/install.md'), makePage({ title: 'Installieren', slug: 'einrichten' }, '## Schritte {#steps}\n'));
  const after = load(dir, memo);
  // The German fallback of the guide links to the German install page by its new path.
  assert.match(after.pages.get('de')!.get('docs/guide')!.html(), /href="\/de\/docs\/einrichten#steps"/);
  assert.equal(
    after.pages.get('en')!.get('docs/guide'),
    before.pages.get('en')!.get('docs/guide'),
    'the English guide links to the unchanged English path',
  );
  assert.equal(after.pages.get('de')!.get('about'), before.pages.get('de')!.get('about'));
});

test('a removed link target stops the load at the linking page, and restoring it loads again', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  load(dir, memo);
  const install = join(dir, 'en/pages/docs/install.md');
  rmSync(install);
  rmSync(join(dir, 'de/pages/docs/install.md'));
  assert.throws(
    () => load(dir, memo),
    (error: unknown) => error instanceof ContentError && /guide\.md:\d+: link to \.\/install\.md#steps/.test(error.message),
  );
  writeFileSync(install, makePage({ title: 'Install' }, '## Steps {#steps}\n'));
  assert.match(load(dir, memo).pages.get('en')!.get('docs/guide')!.html(), /href="\/en\/docs\/install#steps"/);
});

test('a link target turned draft in every locale is reported at the linking page on the next load', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  load(dir, memo);
  const asDraft = (text: string) => text.replace('---\n##', 'draft: true\n---\n##');
  writeFileSync(join(dir, 'en/pages/docs/install.md'), asDraft(makePage({ title: 'Install' }, '## Steps {#steps}\n')));
  writeFileSync(
    join(dir, 'de/pages/docs/install.md'),
    asDraft(makePage({ title: 'Installieren', slug: 'installieren' }, '## Schritte {#steps}\n')),
  );
  assert.throws(
    () => load(dir, memo),
    (error: unknown) => error instanceof ContentError && /guide\.md:\d+: link to \.\/install\.md#steps, a draft/.test(error.message),
  );
});

test('a heading id removed from a link target is reported at the linking page, though the page itself is reused', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  load(dir, memo);
  writeFileSync(join(dir, 'en/pages/docs/install.md'), makePage({ title: 'Install' }, '## Stages\n'));
  assert.throws(
    () => load(dir, memo),
    (error: unknown) => error instanceof ContentError && /guide\.md:\d+: .*#steps/.test(error.message),
  );
});

test("a changed label in one locale's messages recompiles the pages written in that language, and no other", () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About' }, ':::note\nMind this.\n:::\n'));
  const before = load(dir, memo);
  assert.match(before.pages.get('en')!.get('about')!.html(), /Note/);
  writeFileSync(join(dir, 'de/messages.json'), JSON.stringify({ ...MESSAGES, 'site.name': 'Seite', 'callout.note': 'Hinweis' }));
  const german = load(dir, memo);
  assert.notEqual(german.pages.get('de')!.get('docs/install'), before.pages.get('de')!.get('docs/install'), 'German text, German labels');
  for (const [key, page] of before.pages.get('en')!) assert.equal(german.pages.get('en')!.get(key), page, `en ${key} compiled again`);
  // The German fallback of an English page carries English labels: it is not compiled again.
  assert.equal(german.pages.get('de')!.get('about'), before.pages.get('de')!.get('about'));
  writeFileSync(join(dir, 'en/messages.json'), JSON.stringify({ ...MESSAGES, 'callout.note': 'Heads up' }));
  const english = load(dir, memo);
  assert.match(english.pages.get('en')!.get('about')!.html(), /Heads up/);
  assert.match(english.pages.get('de')!.get('about')!.html(), /Heads up/);
});

test('a link target renamed after loads that changed no path, and after a failed load, still recompiles the page linking to it', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  load(dir, memo);
  // A text edit: every path as before, so the links are not resolved again.
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }, 'No links.\n'));
  const edited = load(dir, memo);
  assert.equal(edited.pages.get('en')!.get('about')!.title, 'About us');
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }, '[Broken](/nowhere)\n'));
  assert.throws(() => load(dir, memo), ContentError);
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }, 'No links.\n'));
  writeFileSync(join(dir, 'en/pages/docs/install.md'), makePage({ title: 'Install', slug: 'setup' }, '## Steps {#steps}\n'));
  assert.match(load(dir, memo).pages.get('en')!.get('docs/guide')!.html(), /href="\/en\/docs\/setup#steps"/);
});

/** A load told what changed, as the dev server is by its watcher. */
function loadChanged(dir: string, memo: SiteMemo, ...changed: string[]) {
  const messages = loadMessages(dir, ['en', 'de'], 'en');
  return loadSite(dir, ['en', 'de'], 'en', messages, { memo, changed: new Set(changed.map((file) => join(dir, file))) });
}

test('told what changed, a load reads the files named, finds new and deleted pages, and takes the rest as it read them', () => {
  const dir = siteWithLinks();
  const memo = createSiteMemo();
  load(dir, memo);
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }, 'No links.\n'));
  assert.equal(loadChanged(dir, memo, 'en/pages/about.md').pages.get('en')!.get('about')!.title, 'About us');
  // Written and not named: taken as it was read (the watcher names every file it sees change).
  writeFileSync(join(dir, 'en/pages/docs/index.md'), makePage({ title: 'Documentation' }));
  assert.equal(loadChanged(dir, memo).pages.get('en')!.get('docs')!.title, 'Docs');
  // A new page in a new folder: named by its folder or by itself, it is found.
  mkdirSync(join(dir, 'en/pages/guides'));
  writeFileSync(join(dir, 'en/pages/guides/first.md'), makePage({ title: 'First' }));
  assert.equal(loadChanged(dir, memo, 'en/pages/guides').pages.get('en')!.get('guides/first')!.title, 'First');
  writeFileSync(join(dir, 'en/pages/second.md'), makePage({ title: 'Second' }));
  assert.equal(loadChanged(dir, memo, 'en/pages/second.md').pages.get('en')!.get('second')!.title, 'Second');
  rmSync(join(dir, 'en/pages/second.md'));
  const gone = loadChanged(dir, memo, 'en/pages/second.md');
  assert.equal(gone.pages.get('en')!.has('second'), false);
  assert.equal(gone.pages.get('de')!.has('second'), false);
  // Without the list, every file is checked: the edit not named is seen.
  assert.equal(load(dir, memo).pages.get('en')!.get('docs')!.title, 'Documentation');
});
