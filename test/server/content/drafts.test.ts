import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';
import { ContentError } from '../../../src/server/content/errors.ts';
import { loadSite } from '../../../src/server/content/site.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';

/** A published site with a draft docs page, a draft blog post, and a draft German translation of a published page. */
function siteWithDrafts(extra: Record<string, string> = {}) {
  return makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/published.md': makePage({ title: 'Published guide' }, 'Zebra crossing.\n'),
      'pages/docs/secret.md': makePage({ title: 'Secret plan', draft: 'DRAFT' }, 'Zebra secret.\n'),
      'pages/blog/index.md': makePage({ title: 'Blog' }),
      'pages/blog/soon.md': makePage({ title: 'Coming soon', date: '2026-01-01', draft: 'DRAFT' }),
      'pages/about.md': makePage({ title: 'About' }, 'English about.\n'),
      ...extra,
    },
    de: {
      'messages.json': realMessages('de'),
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/about.md': makePage({ title: 'Über uns', draft: 'DRAFT' }, 'Halb übersetzt.\n'),
    },
  });
}

describe('drafts left out of the build and the server', () => {
  let app: Awaited<ReturnType<typeof serveApp>>;
  before(async () => {
    app = await serveApp({ LOCALES_DIR: draftSite(), DEFAULT_LOCALE: 'en' });
  });
  after(() => app.close());

  test('a draft is not served', async () => {
    assert.equal((await get(app.url, '/en/docs/secret')).status, 404);
    assert.equal((await get(app.url, '/en/blog/soon')).status, 404);
  });

  test('a draft translation of a published page is served as the fallback until it is published', async () => {
    const page = await get(app.url, '/de/about');
    assert.equal(page.status, 200);
    assert.match(page.body, /English about\./);
    assert.doesNotMatch(page.body, /Halb übersetzt/);
  });

  test('no sidebar, search, feed or sitemap names a draft', async () => {
    const docs = (await get(app.url, '/en/docs/published')).body;
    const sidebar = bodyElements(docs, (element) => element.tag === 'nav' && element.attributes.class === 'docs-sidebar');
    assert.ok(sidebar[0]!.text.includes('Published guide'));
    assert.ok(!sidebar[0]!.text.includes('Secret plan'));
    const search = (await get(app.url, '/en/search?q=zebra')).body;
    assert.match(search, /Published guide/);
    assert.doesNotMatch(search, /Secret plan/);
    const feed = (await get(app.url, '/en/blog/feed.xml')).body;
    assert.doesNotMatch(feed, /Coming soon/);
    const sitemap = (await get(app.url, '/sitemap.xml')).body;
    assert.doesNotMatch(sitemap, /secret|soon/);
  });
});

test('the development server shows a draft, with a banner saying so', async () => {
  const app = await serveApp({ LOCALES_DIR: draftSite(), DEFAULT_LOCALE: 'en', NODE_ENV: 'development' });
  try {
    const page = await get(app.url, '/en/docs/secret');
    assert.equal(page.status, 200);
    const [banner] = bodyElements(page.body, (element) => element.attributes['data-notice'] === 'draft');
    assert.equal(banner!.text, realMessages('en')['page.draft']);
    const published = await get(app.url, '/en/docs/published');
    assert.deepEqual(
      bodyElements(published.body, (element) => element.attributes['data-notice'] === 'draft'),
      [],
    );
    assert.match((await get(app.url, '/de/about')).body, /Halb übersetzt/);
  } finally {
    app.close();
  }
});

for (const drafts of ['hide', 'show'] as const) {
  test(`a published page linking to a draft is an error naming both files, with the link's line (drafts ${drafts === 'hide' ? 'hidden' : 'shown'})`, () => {
    const dir = draftSite({ 'pages/docs/linking.md': makePage({ title: 'Linking' }, 'Intro.\n\nSee [the plan](/docs/secret).\n') });
    const messages = loadMessages(dir, ['en', 'de'], 'en');
    assert.throws(
      () => loadSite(dir, ['en', 'de'], 'en', messages, { drafts }),
      (error: Error) =>
        error instanceof ContentError &&
        error.problems.some((problem) => /linking\.md:7: link to \/docs\/secret, a draft \(.*secret\.md\)/.test(problem)),
    );
  });
}

test("a draft may link to another draft, and a build thread that does not compile a locale still knows that locale's drafts", () => {
  const dir = draftSite({ 'pages/docs/notes.md': makePage({ title: 'Notes', draft: 'DRAFT' }, 'See [the plan](/docs/secret).\n') });
  const messages = loadMessages(dir, ['en', 'de'], 'en');
  const site = loadSite(dir, ['en', 'de'], 'en', messages, { serving: ['en'] });
  assert.deepEqual(site.translations.get('about'), ['en'], 'the German draft is not a translation');
  assert.equal(site.pages.get('en')!.has('docs/notes'), false);
});

/** siteWithDrafts with `draft: true` as YAML's boolean (makePage quotes every string). */
function draftSite(extra: Record<string, string> = {}): string {
  const dir = siteWithDrafts(extra);
  for (const file of [
    'en/pages/docs/secret.md',
    'en/pages/blog/soon.md',
    'de/pages/about.md',
    ...Object.keys(extra).map((name) => `en/${name}`),
  ]) {
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace('draft: "DRAFT"', 'draft: true'));
  }
  return dir;
}
