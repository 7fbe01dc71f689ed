import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements, headElements } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';
import { gitDates } from '../../../src/server/content/git-dates.ts';
import { sourceFingerprint } from '../../../src/server/content/translation-record.ts';
import { compileSite } from '../../../scripts/build-content.ts';
import { contentFingerprint } from '../../../src/server/content/snapshot.ts';

// "Last updated" from a real git repository made here, one commit per change, each with
// its own author date; served over HTTP by the real app.

const git = (cwd: string, args: string[], date?: string) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...process.env, ...(date && { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }) },
    encoding: 'utf8',
  });
const commit = (dir: string, message: string, date: string) => {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message], date);
};

const ABOUT_V1 = { title: 'About', description: 'Who we are.' };
const ABOUT_BODY_V1 = 'First text.\n';

/**
 * en/about (3 May, changed again 12 June), de/about translated 3 May from the first
 * version (so outdated), en/docs (1 April), en/guide: never committed.
 */
function makeRepo(): string {
  const dir = makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/about.md': makePage(ABOUT_V1, ABOUT_BODY_V1),
    },
    de: { 'messages.json': realMessages('de') },
  });
  git(dir, ['init', '-q', '-b', 'main']);
  commit(dir, 'docs', '2026-04-01T09:00:00+00:00');
  mkdirSync(join(dir, 'de', 'pages'), { recursive: true });
  cpSync(join(dir, 'en', 'pages', 'index.md'), join(dir, 'de', 'pages', 'index.md'));
  writeFileSync(join(dir, 'de', 'pages', 'about.md'), makePage({ title: 'Über uns', description: 'Wer wir sind.' }, 'Erster Text.\n'));
  const fingerprint = sourceFingerprint({ ...ABOUT_V1, body: ABOUT_BODY_V1 });
  writeFileSync(join(dir, 'de', 'translations.json'), JSON.stringify({ about: fingerprint }));
  commit(dir, 'german', '2026-05-03T10:00:00+02:00');
  writeFileSync(join(dir, 'en', 'pages', 'about.md'), makePage(ABOUT_V1, 'Second text, changed.\n'));
  commit(dir, 'about changed', '2026-06-12T23:30:00+02:00');
  // Written after the last commit: no commit has it, so git gives it no date.
  writeFileSync(join(dir, 'en', 'pages', 'guide.md'), makePage({ title: 'Guide', updated: '2026-01-02' }));
  return dir;
}

const day = (locale: string, iso: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

function lastUpdated(html: string): { datetime: string; text: string } | null {
  const [meta] = bodyElements(html, (element) => element.attributes.class === 'page-meta');
  if (!meta) return null;
  // The last <time>: the page's own date comes after an outdated notice's.
  const time = bodyElements(html, (element) => element.tag === 'time').at(-1);
  return { datetime: time!.attributes.datetime!, text: meta.text };
}

describe('dates from one git log over the content folder', () => {
  test("each file's newest commit, in UTC; a file no commit has is not dated", () => {
    const dir = makeRepo();
    const found = gitDates(dir)!;
    assert.equal(found.shallow, false);
    assert.equal(found.dates.get('en/pages/about.md'), '2026-06-12T21:30:00Z');
    assert.equal(found.dates.get('en/pages/docs/index.md'), '2026-04-01T09:00:00Z');
    assert.equal(found.dates.get('de/pages/about.md'), '2026-05-03T08:00:00Z');
    assert.equal(found.dates.has('en/pages/guide.md'), false);
  });

  test('a folder outside any repository has no git dates', () => {
    assert.equal(gitDates(mkdtempSync(join(tmpdir(), 'polysite-nogit-'))), null);
  });

  test("a shallow clone dates only what changed after its boundary; older files' dates are unknown, not the boundary's", () => {
    const dir = makeRepo();
    const clone = mkdtempSync(join(tmpdir(), 'polysite-shallow-'));
    execFileSync('git', ['clone', '-q', '--depth', '2', `file://${dir}`, clone]);
    const found = gitDates(clone)!;
    assert.equal(found.shallow, true);
    // The newest commit is whole; the second is the boundary, which git lists as adding every file.
    assert.equal(found.dates.get('en/pages/about.md'), '2026-06-12T21:30:00Z');
    assert.equal(found.dates.has('de/pages/about.md'), false);
    assert.equal(found.dates.has('en/pages/docs/index.md'), false);
    assert.ok(found.unknown >= 2);
  });
});

describe('last updated as served', () => {
  let app: Awaited<ReturnType<typeof serveApp>>;
  before(async () => {
    app = await serveApp({ LOCALES_DIR: makeRepo(), DEFAULT_LOCALE: 'en' });
  });
  after(() => app.close());

  test("each page says when its own file last changed, in its locale's words and date format, with <time datetime>", async () => {
    const en = await get(app.url, '/en/about');
    assert.deepEqual(lastUpdated(en.body), {
      datetime: '2026-06-12T21:30:00Z',
      text: realMessages('en')['page.lastUpdated']!.replace('{date}', day('en', '2026-06-12')),
    });
    const de = await get(app.url, '/de/about');
    assert.deepEqual(lastUpdated(de.body), {
      datetime: '2026-05-03T08:00:00Z',
      text: realMessages('de')['page.lastUpdated']!.replace('{date}', day('de', '2026-05-03')),
    });
  });

  test('an outdated translation says when the original changed and when it was translated', async () => {
    const de = await get(app.url, '/de/about');
    const [notice] = bodyElements(de.body, (element) => element.attributes['data-notice'] === 'outdated');
    const expected = realMessages('de')
      ['page.outdatedSince']!.replace('{original}', 'Englisch')
      .replace('{changed}', day('de', '2026-06-12'))
      .replace('{translated}', day('de', '2026-05-03'));
    assert.ok(notice!.text.startsWith(expected), notice!.text);
  });

  test('a file without a commit falls back to its `updated:` front matter, never the build time', async () => {
    const guide = await get(app.url, '/en/guide');
    assert.equal(lastUpdated(guide.body)!.datetime, '2026-01-02');
  });

  test('the page data, JSON-LD dateModified and the sitemap carry the same dates', async () => {
    const data = JSON.parse((await get(app.url, `/_data/${app.site.manifest.build}/en/docs.json`)).body);
    assert.deepEqual(data.page.updated, { iso: '2026-04-01T09:00:00Z', text: day('en', '2026-04-01') });
    const jsonLd = headElements((await get(app.url, '/en/docs')).body).find((element) => element.attributes.type === 'application/ld+json');
    assert.equal(JSON.parse(jsonLd!.text).dateModified ?? JSON.parse(jsonLd!.text)['@graph'][0].dateModified, '2026-04-01T09:00:00Z');
    const sitemap = (await get(app.url, '/sitemap.xml')).body;
    assert.match(sitemap, /<loc>https:\/\/example\.test\/de\/about<\/loc><lastmod>2026-05-03T08:00:00Z<\/lastmod>/);
    assert.match(sitemap, /<loc>https:\/\/example\.test\/en\/about<\/loc><lastmod>2026-06-12T21:30:00Z<\/lastmod>/);
  });
});

test('the build records the dates, so a copy of the site without .git shows the same ones', async () => {
  const dir = makeRepo();
  const locales = ['en', 'de'];
  const compiled = await compileSite(dir, locales, 'en');
  rmSync(join(dir, '.git'), { recursive: true });
  const app = await serveApp({ LOCALES_DIR: dir, DEFAULT_LOCALE: 'en' }, {}, (dist) =>
    compiled.writeSnapshot(dist, contentFingerprint(dir, locales, 'en')),
  );
  try {
    assert.equal(lastUpdated((await get(app.url, '/en/about')).body)!.datetime, '2026-06-12T21:30:00Z');
    assert.equal(lastUpdated((await get(app.url, '/de/about')).body)!.datetime, '2026-05-03T08:00:00Z');
  } finally {
    app.close();
  }
});

test('without git or a build, only `updated:` front matter dates a page', async () => {
  const dir = makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/dated.md': makePage({ title: 'Dated', updated: '2025-12-24' }),
      'pages/undated.md': makePage({ title: 'Undated' }),
    },
  });
  const app = await serveApp({ LOCALES_DIR: dir, DEFAULT_LOCALE: 'en' });
  try {
    assert.equal(lastUpdated((await get(app.url, '/en/dated')).body)!.datetime, '2025-12-24');
    assert.equal(lastUpdated((await get(app.url, '/en/undated')).body), null);
  } finally {
    app.close();
  }
});
