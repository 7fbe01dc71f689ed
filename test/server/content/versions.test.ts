import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { buildImages } from '../../../scripts/build-images.ts';
import { relative, join } from 'node:path';
import { translationRows } from '../../../src/server/content/translation-status.ts';
import { runTranslations } from '../../helpers/translations.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { createSiteMemo, loadSite } from '../../../src/server/content/site.ts';
import { loadContent } from '../../../src/server/content/load-content.ts';
import { sourceFingerprint, translationStatus } from '../../../src/server/content/translation-record.ts';
import { makePage } from '../../helpers/content.ts';
import { type Files, makeVersionedRoot, versionsJson } from '../../helpers/versions.ts';

const RELEASED = { label: '2.0', released: true };

function load(localesDir: string, locales: string[], warnings: string[] = []) {
  return loadSite(localesDir, locales, locales[0]!, loadMessages(localesDir, locales, locales[0]!), {
    warn: (message) => warnings.push(message),
  });
}

/**
 * A site with current docs in en and de and the version 1.0 of them: `frozen` adds files
 * under `versions/`, `current` under `locales/en/`, `de` under `locales/de/`.
 */
function twoVersions(
  frozen: Files = {},
  current: Files = {},
  list = versionsJson(RELEASED, [{ name: '1.0', label: '1.x' }]),
  de: Files = {},
) {
  return makeVersionedRoot(
    {
      en: {
        'pages/index.md': makePage({ title: 'Home' }),
        'pages/docs/index.md': makePage({ title: 'Docs' }),
        'pages/docs/install.md': makePage({ title: 'Install 2' }, 'Install the new way.\n'),
        ...current,
      },
      de: { 'pages/docs/guides/index.md': makePage({ title: 'Anleitungen', slug: 'anleitungen' }), ...de },
    },
    {
      'versions.json': list,
      '1.0/en/pages/docs/index.md': makePage({ title: 'Docs 1' }),
      '1.0/en/pages/docs/install.md': makePage({ title: 'Install 1' }, 'Install the old way.\n'),
      '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides 1' }),
      '1.0/de/pages/docs/guides/index.md': makePage({ title: 'Anleitungen 1', slug: 'anleitungen' }),
      ...frozen,
    },
  );
}

describe('a versioned site', () => {
  test("an older version's pages are served under docs/<name>, with the latest at today's paths", () => {
    const { localesDir } = twoVersions();
    const site = load(localesDir, ['en', 'de']);
    assert.equal(site.paths.pathOf('en', 'docs/install'), '/en/docs/install');
    assert.equal(site.paths.pathOf('en', 'docs/1.0/install'), '/en/docs/1.0/install');
    assert.equal(site.pages.get('en')!.get('docs/1.0/install')!.title, 'Install 1');
    assert.equal(site.pages.get('en')!.get('docs/install')!.title, 'Install 2');
    assert.deepEqual(
      site.versions.map(({ name, label, mount, latest }) => ({ name, label, mount, latest })),
      [
        { name: '2.0', label: '2.0', mount: 'docs', latest: true },
        { name: '1.0', label: '1.x', mount: 'docs/1.0', latest: false },
      ],
    );
  });

  test('localized slugs work in every version', () => {
    const { localesDir } = twoVersions();
    const site = load(localesDir, ['en', 'de']);
    assert.equal(site.paths.pathOf('de', 'docs/guides'), '/de/docs/anleitungen');
    assert.equal(site.paths.pathOf('de', 'docs/1.0/guides'), '/de/docs/1.0/anleitungen');
    assert.deepEqual(site.paths.find('de', 'docs/1.0/anleitungen'), { key: 'docs/1.0/guides', canonical: true });
  });

  test("an untranslated page falls back to the default locale's page of the same version, never another version's", () => {
    const { localesDir } = twoVersions();
    const site = load(localesDir, ['en', 'de']);
    const old = site.pages.get('de')!.get('docs/1.0/install')!;
    assert.equal(old.contentLocale, 'en');
    assert.equal(old.title, 'Install 1');
    assert.match(old.html(), /old way/);
    assert.match(site.pages.get('de')!.get('docs/install')!.html(), /new way/);
  });

  test("links from a version's page go to that version's pages", () => {
    const { localesDir } = twoVersions({
      '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides 1' }, '[Install](/docs/install) and [again](../install.md)\n'),
    });
    const html = load(localesDir, ['en', 'de']).pages.get('en')!.get('docs/1.0/guides')!.html();
    assert.match(html, /href="\/en\/docs\/1\.0\/install"/);
    assert.doesNotMatch(html, /href="\/en\/docs\/install"/);
  });

  test("a page with the same text in two versions links to each version's own pages, as if each were compiled alone", () => {
    const text = '## Top\n\n[Install](/docs/install), [again](../install.md), [with a query](/docs/install?a=1&b="2") and [up](#top)\n';
    const { localesDir } = twoVersions(
      { '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides' }, text) },
      { 'pages/docs/guides/index.md': makePage({ title: 'Guides' }, text) },
    );
    const pages = load(localesDir, ['en', 'de']).pages.get('en')!;
    const [latest, older] = [pages.get('docs/guides')!.html(), pages.get('docs/1.0/guides')!.html()];
    assert.match(latest, /href="\/en\/docs\/install"/);
    assert.match(latest, /href="\/en\/docs\/install\?a=1&amp;b=&quot;2&quot;"/);
    assert.match(older, /href="\/en\/docs\/1\.0\/install"/);
    assert.match(older, /href="\/en\/docs\/1\.0\/install\?a=1&amp;b=&quot;2&quot;"/);
    assert.doesNotMatch(older, /href="\/en\/docs\/install/);
    assert.match(older, /href="#top"/);
    // The same page compiled with no other version sharing its text.
    const { localesDir: alone } = twoVersions({ '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides' }, text) });
    assert.equal(older, load(alone, ['en', 'de']).pages.get('en')!.get('docs/1.0/guides')!.html());
  });

  test("a version's page shows the image beside it in the version's folder, and the build copies that image", async () => {
    const png = readFileSync(new URL('../../scripts/fixtures/tiny.png', import.meta.url));
    const { localesDir, root } = twoVersions({
      '1.0/en/pages/docs/diagram.png': png,
      '1.0/en/pages/docs/install.md': makePage(
        { title: 'Install 1' },
        '![The old flow](./diagram.png)\n\n![Logo](../../images/logo.png)\n',
      ),
    });
    mkdirSync(join(localesDir, 'en', 'images'));
    writeFileSync(join(localesDir, 'en', 'images', 'logo.png'), png);
    const html = load(localesDir, ['en', 'de']).pages.get('en')!.get('docs/1.0/install')!.html();
    const src = html.match(/<img[^>]* src="\/assets\/([^"]+)"/)?.[1];
    assert.match(src ?? '', /^versions-1-0-en-pages-docs-diagram-.+\.png$/);
    // The locale's images are not versioned: the version's page shows the locale's file.
    assert.match(html, /<img[^>]* src="\/assets\/en-images-logo-[^"]+\.png"/);
    const assetsDir = join(root, 'assets');
    mkdirSync(assetsDir);
    await buildImages(localesDir, ['en', 'de'], assetsDir);
    assert.deepEqual(readFileSync(join(assetsDir, src!)), png);
  });

  test("unreleased current docs are served under docs/next, and the newest listed version at today's paths", () => {
    const { localesDir } = twoVersions({}, {}, versionsJson({ label: '2.0-beta', released: false }, [{ name: '1.0' }]));
    const site = load(localesDir, ['en', 'de']);
    assert.equal(site.pages.get('en')!.get('docs/next/install')!.title, 'Install 2');
    assert.equal(site.pages.get('en')!.get('docs/install')!.title, 'Install 1');
    assert.equal(site.paths.pathOf('de', 'docs/guides'), '/de/docs/anleitungen');
    assert.equal(site.pages.get('de')!.get('docs/guides')!.title, 'Anleitungen 1');
  });
});

describe('a versioned site in the dev server, reloaded with its memo', () => {
  test('after versions.json changes, every page is where the new versions.json puts it, even when its file did not change', () => {
    const { localesDir, root } = twoVersions();
    const memo = createSiteMemo();
    const reload = (changed: string[]) =>
      loadSite(localesDir, ['en', 'de'], 'en', loadMessages(localesDir, ['en', 'de'], 'en'), {
        memo,
        changed: new Set(changed),
        warn: () => {},
      });
    assert.equal(reload([]).pages.get('en')!.get('docs/install')!.title, 'Install 2');
    const list = join(root, 'versions', 'versions.json');
    writeFileSync(list, versionsJson({ label: '2.0-beta', released: false }, [{ name: '1.0' }]));
    const pages = reload([list]).pages.get('en')!;
    assert.equal(pages.get('docs/next/install')?.title, 'Install 2');
    assert.equal(pages.get('docs/next/install')?.key, 'docs/next/install');
    assert.equal(pages.get('docs/install')?.title, 'Install 1');
    assert.equal(pages.get('docs/install')?.key, 'docs/install');
  });
});

describe('translation status per version', () => {
  test("an older version's translation is compared with the same version's source, so it stays up to date when the current source moves on", () => {
    const oldSource = { title: 'Install 1', description: 'A description.', body: 'Install the old way.\n' };
    const { localesDir } = twoVersions(
      {
        '1.0/de/pages/docs/install.md': makePage({ title: 'Installieren 1' }, 'Alt.\n'),
        '1.0/de/translations.json': { 'docs/install': sourceFingerprint(oldSource) },
      },
      {},
      undefined,
      {
        'pages/docs/install.md': makePage({ title: 'Installieren 2' }, 'Neu.\n'),
        'translations.json': { 'docs/install': sourceFingerprint(oldSource) },
      },
    );
    const site = load(localesDir, ['en', 'de']);
    const status = (key: string) => {
      const page = site.pages.get('de')!.get(key)!;
      return translationStatus(true, page.recorded, site.pages.get('en')!.get(key)!.fingerprint);
    };
    assert.equal(status('docs/1.0/install'), 'up-to-date');
    assert.equal(status('docs/install'), 'outdated');
  });
});

describe('versions: mistakes are build errors with file and line', () => {
  const problemsOf = (localesDir: string) => {
    try {
      loadContent(localesDir, ['en', 'de'], 'en');
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
    assert.fail('the content loaded');
  };
  const shown = (localesDir: string, path: string) => relative(process.cwd(), join(localesDir, '..', path));

  test('a version named twice', () => {
    const list = versionsJson(RELEASED, [{ name: '1.0' }, { name: '1.0', label: 'again' }]);
    const { localesDir } = twoVersions({}, {}, list);
    assert.deepEqual(problemsOf(localesDir), [
      `${shown(localesDir, 'versions/versions.json')}:5: the version "1.0" is named twice (first at ${shown(localesDir, 'versions/versions.json')}:4); keep one`,
    ]);
  });

  test("a version folder without a locale the site has falls back to the default locale's, with a warning", () => {
    // 0.9 has English docs only.
    const { localesDir } = twoVersions(
      { '0.9/en/pages/docs/index.md': makePage({ title: 'Docs 0.9' }) },
      {},
      versionsJson(RELEASED, [{ name: '1.0' }, { name: '0.9' }]),
    );
    const warnings: string[] = [];
    const site = load(localesDir, ['en', 'de'], warnings);
    assert.ok(
      warnings.includes(
        `${shown(localesDir, 'versions/0.9/de/pages/docs')}/: the version "0.9" has no de docs: its pages are served from en, with a notice`,
      ),
      warnings.join('\n'),
    );
    assert.equal(site.pages.get('de')!.get('docs/0.9')!.contentLocale, 'en');
  });

  test('a link from a versioned page to a page that version lacks', () => {
    const { localesDir } = twoVersions(
      { '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides 1' }, 'Text.\n\nSee [the new page](/docs/only-new).\n') },
      { 'pages/docs/only-new.md': makePage({ title: 'New' }) },
    );
    assert.deepEqual(problemsOf(localesDir), [
      `${shown(localesDir, 'versions/1.0/en/pages/docs/guides/index.md')}:7: link to /docs/only-new, a page the docs of version "1.x" lack (no docs/1.0/only-new)`,
    ]);
  });

  test('a link that only one version lacks is reported in that version, when both versions have the same text', () => {
    const text = 'Text.\n\nSee [the new page](/docs/only-new).\n';
    const { localesDir } = twoVersions(
      { '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides' }, text) },
      { 'pages/docs/guides/index.md': makePage({ title: 'Guides' }, text), 'pages/docs/only-new.md': makePage({ title: 'New' }) },
    );
    assert.deepEqual(problemsOf(localesDir), [
      `${shown(localesDir, 'versions/1.0/en/pages/docs/guides/index.md')}:7: link to /docs/only-new, a page the docs of version "1.x" lack (no docs/1.0/only-new)`,
    ]);
  });

  test('a version name that collides with a docs slug', () => {
    const { localesDir } = twoVersions({}, { 'pages/docs/1.0.md': makePage({ title: 'Release notes 1.0' }) });
    assert.deepEqual(problemsOf(localesDir), [
      `${shown(localesDir, 'locales/en/pages/docs/1.0.md')}:1: the page /en/docs/1.0 is on the path of the version "1.0" (${shown(localesDir, 'versions/versions.json')}:4); rename the file or the version`,
    ]);
  });

  test('a listed version without its folder', () => {
    const { localesDir } = twoVersions({}, {}, versionsJson(RELEASED, [{ name: '1.0' }, { name: '0.5' }]));
    assert.deepEqual(problemsOf(localesDir), [
      `${shown(localesDir, 'versions/versions.json')}:5: the version "0.5" has no folder ${shown(localesDir, 'versions/0.5')} (npm run version -- 0.5)`,
    ]);
  });
});

describe('translation status per version, as npm run translations reports and records it', () => {
  test("each version's pages have their own rows, and --done records an older version's page in that version's record", () => {
    const { localesDir } = twoVersions({ '1.0/de/pages/docs/install.md': makePage({ title: 'Installieren 1' }, 'Alt.\n') });
    const rows = translationRows(load(localesDir, ['en', 'de'])).filter((row) => row.key.endsWith('install'));
    assert.deepEqual(
      rows.map(({ key, status }) => ({ key, status })),
      [
        { key: 'docs/install', status: 'missing' },
        { key: 'docs/1.0/install', status: 'unknown' },
      ],
    );
    const done = runTranslations(localesDir, '--done', 'de', 'docs/1.0/install');
    assert.equal(done.code, 0, done.err);
    const record = JSON.parse(readFileSync(join(localesDir, '..', 'versions', '1.0', 'de', 'translations.json'), 'utf8'));
    assert.deepEqual(record, { 'docs/install': load(localesDir, ['en', 'de']).pages.get('en')!.get('docs/1.0/install')!.fingerprint });
    const after = translationRows(load(localesDir, ['en', 'de'])).find((row) => row.key === 'docs/1.0/install')!;
    assert.equal(after.status, 'up-to-date');
    assert.equal(existsSync(join(localesDir, 'de', 'translations.json')), false);
  });
});
