import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveApp } from '../../helpers/app.ts';
import { MESSAGES, makePage } from '../../helpers/content.ts';
import { get } from '../../helpers/http.ts';
import { makeVersionedRoot, versionsJson } from '../../helpers/versions.ts';

// A versioned site over real HTTP: the latest release at today's paths, older ones under
// docs/<name>, each with its banner, switcher, head and search.

const VERSION_MESSAGES = {
  ...MESSAGES,
  'version.switcher': 'Version',
  'version.old': 'Docs for {version}.',
  'version.unmaintained': 'Docs for {version}, no longer maintained.',
  'version.next': 'Docs for {version}, not released.',
  'version.latestLink': 'The latest is {latest}.',
  'llms.versions': 'Other versions',
};

function versionedSite() {
  return makeVersionedRoot(
    {
      en: {
        'messages.json': VERSION_MESSAGES,
        'pages/index.md': makePage({ title: 'Home' }),
        'pages/docs/index.md': makePage({ title: 'Docs' }),
        'pages/docs/install.md': makePage({ title: 'Install' }, 'Install with zebrafish.\n'),
      },
      de: {
        'messages.json': { ...VERSION_MESSAGES, 'notFound.title': 'Nicht gefunden' },
        'pages/docs/guides/index.md': makePage({ title: 'Anleitungen', slug: 'anleitungen' }),
      },
    },
    {
      'versions.json': versionsJson({ label: '2.0', released: true }, [
        { name: '1.0', label: '1.x' },
        { name: '0.9', unmaintained: true },
      ]),
      '1.0/en/pages/docs/index.md': makePage({ title: 'Docs 1' }),
      '1.0/en/pages/docs/install.md': makePage({ title: 'Install 1' }, 'Install with kingfisher.\n'),
      '1.0/en/pages/docs/legacy.md': makePage({ title: 'Legacy' }, 'Only in 1.x.\n'),
      '1.0/en/pages/docs/guides/index.md': makePage({ title: 'Guides 1' }),
      '1.0/de/pages/docs/guides/index.md': makePage({ title: 'Anleitungen 1', slug: 'anleitungen' }),
      '0.9/en/pages/docs/index.md': makePage({ title: 'Docs 0.9' }),
      '0.9/de/pages/docs/index.md': makePage({ title: 'Doku 0.9' }),
    },
  );
}

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: versionedSite().localesDir, DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

const payloadOf = (html: string) => JSON.parse(/<script type="application\/json" id="polysite-data">(.*?)<\/script>/s.exec(html)![1]!);

describe('URLs of a versioned site', () => {
  test("the latest release is at today's paths and an older one under docs/<name>", async () => {
    const latest = await get(app.url, '/en/docs/install');
    assert.equal(latest.status, 200);
    assert.match(latest.body, /zebrafish/);
    const old = await get(app.url, '/en/docs/1.0/install');
    assert.equal(old.status, 200);
    assert.match(old.body, /kingfisher/);
  });

  test("an older version's default path in a locale that localized it is one 308 to the localized path", async () => {
    const moved = await get(app.url, '/de/docs/1.0/guides');
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.location, '/de/docs/1.0/anleitungen');
    assert.equal((await get(app.url, '/de/docs/1.0/anleitungen')).status, 200);
  });

  test("an unknown version, or a page a version lacks, is the locale's 404", async () => {
    for (const path of ['/de/docs/9.9/install', '/de/docs/0.9/install', '/de/docs/1.0/nothing']) {
      const missing = await get(app.url, path);
      assert.equal(missing.status, 404, path);
      assert.match(missing.body, /<html lang="de"/);
      assert.match(missing.body, /Nicht gefunden/);
    }
  });
});

describe("an older version's page", () => {
  test('says which version it is and links to the same page in the latest', async () => {
    const { body } = await get(app.url, '/en/docs/1.0/install');
    assert.match(body, /data-notice="version">Docs for 1\.x\.<!-- --> <a href="\/en\/docs\/install">The latest is 2\.0\.<\/a>/);
  });

  test("links to the latest's docs home when the latest lacks the page, and an unmaintained version says so", async () => {
    assert.match((await get(app.url, '/en/docs/1.0/legacy')).body, /Docs for 1\.x\.<!-- --> <a href="\/en\/docs">/);
    assert.match((await get(app.url, '/de/docs/0.9')).body, /Docs for 0\.9, no longer maintained\./);
  });

  test("the switcher keeps the page where a version has it, else goes to that version's docs home, in the same locale", async () => {
    const choices = payloadOf((await get(app.url, '/en/docs/1.0/legacy')).body).page.version.choices;
    assert.deepEqual(choices, [
      { name: '2.0', label: '2.0', path: '/en/docs' },
      { name: '1.0', label: '1.x', path: '/en/docs/1.0/legacy' },
      { name: '0.9', label: '0.9', path: '/en/docs/0.9' },
    ]);
    const german = payloadOf((await get(app.url, '/de/docs/1.0/anleitungen')).body).page;
    assert.deepEqual(
      german.version.choices.map((choice: { path: string }) => choice.path),
      ['/de/docs/anleitungen', '/de/docs/1.0/anleitungen', '/de/docs/0.9'],
    );
    // The language switcher stays within the version.
    assert.ok(german.locales.every((link: { path: string }) => link.path.includes('/docs/1.0/')));
  });

  test('is its own canonical, outside hreflang clusters and the sitemap; an unmaintained one is noindex', async () => {
    const old = (await get(app.url, '/en/docs/1.0/install')).body;
    assert.match(old, /<link rel="canonical" href="https:\/\/example\.test\/en\/docs\/1\.0\/install">/);
    assert.doesNotMatch(old, /<link rel="alternate" hreflang=/);
    assert.doesNotMatch(old, /name="robots"/);
    assert.match((await get(app.url, '/en/docs/0.9')).body, /<meta name="robots" content="noindex">/);
    const latest = (await get(app.url, '/en/docs/install')).body;
    assert.match(latest, /<link rel="alternate" hreflang="en" href="https:\/\/example\.test\/en\/docs\/install">/);
    const sitemap = (await get(app.url, '/sitemap.xml')).body;
    assert.match(sitemap, /<loc>https:\/\/example\.test\/en\/docs\/install<\/loc>/);
    assert.doesNotMatch(sitemap, /docs\/1\.0|docs\/0\.9/);
  });
});

describe('search in a versioned site', () => {
  test('searches the latest by default and an older version with v', async () => {
    const latest = payloadOf((await get(app.url, '/en/search?q=kingfisher')).body).page.screen;
    assert.equal(latest.total, 0);
    const old = payloadOf((await get(app.url, '/en/search?q=kingfisher&v=1.0')).body).page.screen;
    assert.deepEqual(
      old.hits.map((hit: { path: string }) => hit.path),
      ['/en/docs/1.0/install'],
    );
    assert.equal(old.version, '1.0');
    const none = payloadOf((await get(app.url, '/en/search?q=zebrafish&v=1.0')).body).page.screen;
    assert.equal(none.total, 0);
  });

  test("an older version's page has that version's index and search form", async () => {
    const { body } = await get(app.url, '/en/docs/1.0/install');
    assert.match(body, /<input type="hidden" name="v" value="1\.0"\/>/);
    assert.match(payloadOf(body).search['en@1.0'] ?? '', /^\/assets\/search-en-v1\.0-/);
  });
});

describe("the search indexes a versioned site's page names", () => {
  const scopes = (search: Record<string, string | null>) => Object.keys(search).sort();

  test("a latest page names each locale's latest index and no older version's", async () => {
    const { body } = await get(app.url, '/de/docs/anleitungen');
    assert.deepEqual(scopes(payloadOf(body).search), ['de', 'en']);
  });

  test("an older version's page names that version's index in each locale and its own locale's latest, no other version's", async () => {
    const { body } = await get(app.url, '/de/docs/1.0/anleitungen');
    assert.deepEqual(scopes(payloadOf(body).search), ['de', 'de@1.0', 'en@1.0']);
    assert.match(payloadOf(body).search['de@1.0'], /^\/assets\/search-de-v1\.0-/);
  });

  test('page data names the same indexes as its document, so a client that navigates to another version learns them', async () => {
    const { body: document } = await get(app.url, '/en/docs/1.0/install');
    const build = payloadOf(document).page.build;
    const data = JSON.parse((await get(app.url, `/_data/${build}/en/docs/1.0/install.json`)).body);
    assert.deepEqual(data.search, payloadOf(document).search);
    const latest = JSON.parse((await get(app.url, `/_data/${build}/en/docs/install.json`)).body);
    assert.deepEqual(scopes(latest.search), ['de', 'en']);
  });

  test('a search page names the indexes of the version it searched; an unknown version its locale latest', async () => {
    assert.deepEqual(scopes(payloadOf((await get(app.url, '/en/search?q=kingfisher&v=1.0')).body).search), ['de@1.0', 'en', 'en@1.0']);
    assert.deepEqual(scopes(payloadOf((await get(app.url, '/en/search?q=kingfisher&v=7.7')).body).search), ['de', 'en']);
  });
});

describe('llms.txt and Markdown twins of a versioned site', () => {
  test("a locale's llms.txt lists the latest docs and links each older version's own llms.txt, which lists its docs", async () => {
    const index = await get(app.url, '/en/llms.txt');
    assert.match(index.body, /\(https:\/\/example\.test\/en\/docs\/install\.md\)/);
    assert.doesNotMatch(index.body, /docs\/1\.0\/install/);
    assert.match(index.body, /## Other versions\n\n- \[1\.x\]\(https:\/\/example\.test\/en\/docs\/1\.0\/llms\.txt\)\n- \[0\.9\]/);
    const old = await get(app.url, '/de/docs/1.0/llms.txt');
    assert.equal(old.status, 200);
    assert.match(old.body, /\(https:\/\/example\.test\/de\/docs\/1\.0\/install\.md\)/);
    assert.doesNotMatch(old.body, /\/de\/docs\/install\.md/);
    assert.doesNotMatch((await get(app.url, '/en/llms-full.txt')).body, /kingfisher/);
  });

  test('every version has Markdown twins', async () => {
    const twin = await get(app.url, '/en/docs/1.0/install.md');
    assert.equal(twin.status, 200);
    assert.match(twin.body, /kingfisher/);
    assert.match((await get(app.url, '/de/docs/1.0/anleitungen.md')).body, /Anleitungen 1/);
  });
});
