import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { headElements } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';

// llms.txt per locale, llms-full.txt and each page's Markdown twin, over HTTP from the real app.

function site() {
  return makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home', description: 'The start.' }),
      'pages/docs/index.md': makePage({ title: 'Docs', description: 'All the docs.' }),
      'pages/docs/install.md': makePage(
        { title: 'Install [it]', description: 'How to install.', order: 1, updated: '2026-01-02' },
        'Read [the docs](/docs) and [about us](../about.md#team), or [elsewhere](https://example.org/x).\n\n```md\n[not a link](/docs)\n```\n',
      ),
      'pages/about.md': makePage({ title: 'About', description: 'Who we are.' }, '## Team\n\nUs.\n'),
    },
    ar: {
      'messages.json': realMessages('ar'),
      'pages/index.md': makePage({ title: 'الرئيسية', description: 'البداية.' }),
      'pages/about.md': makePage({ title: 'من نحن', description: 'نحن.', slug: 'man-nahnu' }, '## Team\n\nنحن.\n'),
    },
  });
}

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: site(), DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

describe('llms.txt', () => {
  test("a locale's llms.txt: the site's name and tagline in that locale, then its pages by section, each with title, twin URL and description", async () => {
    const answer = await get(app.url, '/ar/llms.txt');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(answer.headers['cache-control'] as string, /^public, max-age=0, s-maxage=/);
    const ar = realMessages('ar');
    const lines = answer.body.split('\n');
    assert.equal(lines[0], `# ${ar['site.name']}`);
    assert.equal(lines[2], `> ${ar['site.tagline']}`);
    assert.ok(lines.includes(`## ${ar['nav.docs']}`));
    assert.ok(lines.includes(`## ${ar['llms.pages']}`));
    assert.ok(lines.includes('- [من نحن](https://example.test/ar/man-nahnu.md): نحن.'), answer.body);
    // A page Arabic shows in English is marked with its language, named in Arabic.
    const english = new Intl.DisplayNames(['ar'], { type: 'language' }).of('en');
    assert.ok(lines.includes(`- [Install \\[it\\]](https://example.test/ar/docs/install.md) (${english}): How to install.`), answer.body);
  });

  test("/llms.txt is the default locale's", async () => {
    assert.equal((await get(app.url, '/llms.txt')).body, (await get(app.url, '/en/llms.txt')).body);
  });

  test('llms-full.txt holds every page of the locale as Markdown', async () => {
    const full = await get(app.url, '/en/llms-full.txt');
    assert.equal(full.status, 200);
    for (const title of ['Home', 'Docs', 'Install [it]', 'About']) assert.ok(full.body.includes(`title: ${title}`), title);
  });

  test('under its cap, a locale has no per-section full files', async () => {
    assert.equal((await get(app.url, '/en/docs/llms-full.txt')).status, 404);
    assert.equal((await get(app.url, '/en/llms-full-pages.txt')).status, 404);
  });
});

describe('llms-full.txt past its cap (LLMS_FULL_MAX_KB)', () => {
  /** Text of about `bytes` bytes, in sentences. */
  const prose = (bytes: number) => `${'Words that fill the page. '.repeat(Math.ceil(bytes / 26))}\n`;
  let capped: Awaited<ReturnType<typeof serveApp>>;
  before(async () => {
    const dir = makeLocales({
      en: {
        'messages.json': realMessages('en'),
        'pages/index.md': makePage({ title: 'Home', description: 'The start.' }),
        'pages/about.md': makePage({ title: 'About', description: 'Who we are.' }),
        'pages/docs/index.md': makePage({ title: 'Docs', description: 'All the docs.' }),
        'pages/docs/start.md': makePage({ title: 'Start', description: 'First steps.', order: 1 }, prose(300)),
        'pages/docs/guides/index.md': makePage({ title: 'Guides', description: 'How to.', order: 2 }),
        'pages/docs/guides/a-short.md': makePage({ title: 'Short guide', description: 'Short.', order: 1 }, prose(200)),
        // Past the cap on its own: its section's file stops before it.
        'pages/docs/guides/b-long.md': makePage({ title: 'Long guide', description: 'Long.', order: 2 }, prose(1500)),
        'pages/blog/index.md': makePage({ title: 'Blog', description: 'News.' }),
        'pages/blog/hello.md': makePage({ title: 'Hello', description: 'A post.', date: '2026-01-02' }, prose(400)),
      },
      ar: {
        'messages.json': realMessages('ar'),
        'pages/index.md': makePage({ title: 'الرئيسية', description: 'البداية.' }),
        'pages/docs/guides/index.md': makePage({ title: 'أدلة', description: 'كيف.', order: 2, slug: 'adilla' }),
      },
    });
    capped = await serveApp({ LOCALES_DIR: dir, DEFAULT_LOCALE: 'en', LLMS_FULL_MAX_KB: '1' });
  });
  after(() => capped.close());

  test("the locale's llms-full.txt is its llms.txt and a link to each section's full file, in the locale's words and paths", async () => {
    const [en, index] = [await get(capped.url, '/en/llms-full.txt'), await get(capped.url, '/en/llms.txt')];
    assert.equal(en.status, 200);
    assert.ok(en.body.startsWith(index.body), 'it begins with llms.txt');
    assert.equal(
      en.body.slice(index.body.length),
      `\n## ${realMessages('en')['llms.fullSections']}\n\n` +
        '- [Docs](https://example.test/en/docs/llms-full.txt)\n' +
        '- [Guides](https://example.test/en/docs/guides/llms-full.txt)\n' +
        '- [Blog](https://example.test/en/blog/llms-full.txt)\n' +
        `- [${realMessages('en')['llms.pages']}](https://example.test/en/llms-full-pages.txt)\n`,
    );
    assert.ok(!en.body.includes('\ntitle: '), 'no page text in it');
    const ar = await get(capped.url, '/ar/llms-full.txt');
    assert.match(ar.body, /\(https:\/\/example\.test\/ar\/docs\/adilla\/llms-full\.txt\)/);
    assert.ok(ar.body.includes(`## ${realMessages('ar')['llms.fullSections']}`));
  });

  test("a section's file holds its pages' Markdown, and stops at the cap saying where the rest is", async () => {
    const docs = await get(capped.url, '/en/docs/llms-full.txt');
    assert.equal(docs.status, 200);
    assert.equal(docs.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(docs.body, /^# Docs\n/);
    assert.ok(docs.body.includes('title: Start') && docs.body.includes('title: Docs'));
    assert.ok(!docs.body.includes('title: Short guide'), "a folder's pages are in its own file");

    const guides = await get(capped.url, '/en/docs/guides/llms-full.txt');
    assert.ok(guides.body.includes('title: Short guide'));
    assert.ok(!guides.body.includes('title: Long guide'));
    assert.match(guides.body, /This file stops at 1 KB: each page listed in llms\.txt is at its own \.md URL\. -->\n$/);
    assert.ok(Buffer.byteLength(guides.body) <= 1024 + 200, `${Buffer.byteLength(guides.body)} bytes`);

    const blog = await get(capped.url, '/en/blog/llms-full.txt');
    assert.ok(blog.body.includes('title: Hello') && !blog.body.includes('title: Start'));
    const others = await get(capped.url, '/en/llms-full-pages.txt');
    assert.ok(others.body.includes('title: About') && others.body.includes('title: Home'));
  });

  test("a translation's section file sits under its localized path and holds the locale's pages, fallbacks included", async () => {
    const guides = await get(capped.url, '/ar/docs/adilla/llms-full.txt');
    assert.equal(guides.status, 200);
    assert.match(guides.body, /^# أدلة\n/);
    assert.ok(guides.body.includes('title: Short guide'), 'the English page Arabic shows');
    assert.equal((await get(capped.url, '/ar/docs/guides/llms-full.txt')).status, 404, 'not at the English path');
  });
});

describe('Markdown twins', () => {
  test("a page's twin: front matter with title, description, language, canonical URL and last updated, links absolute to the locale's pages", async () => {
    const twin = await get(app.url, '/ar/docs/install.md');
    assert.equal(twin.status, 200);
    assert.equal(twin.headers['content-type'], 'text/markdown; charset=utf-8');
    // Arabic shows the English text (a fallback): its language is English, its canonical URL the original's.
    assert.equal(
      twin.body,
      '---\ntitle: Install [it]\ndescription: How to install.\nlanguage: en\ncanonical: https://example.test/en/docs/install\nlastUpdated: 2026-01-02\n---\n\n' +
        'Read [the docs](https://example.test/ar/docs) and [about us](https://example.test/ar/man-nahnu#team), or [elsewhere](https://example.org/x).\n\n```md\n[not a link](/docs)\n```\n',
    );
  });

  test('a twin is validated by its ETag, and a locale home has one at /<locale>/index.md', async () => {
    const first = await get(app.url, '/en/index.md');
    assert.equal(first.status, 200);
    assert.match(first.body, /^---\ntitle: Home\n/);
    const again = await get(app.url, '/en/index.md', { 'if-none-match': first.headers.etag as string });
    assert.equal(again.status, 304);
  });

  test("a translation's twin: its own language and canonical URL", async () => {
    const twin = await get(app.url, '/ar/man-nahnu.md');
    assert.match(
      twin.body,
      /^---\ntitle: من نحن\ndescription: نحن.\nlanguage: ar\ncanonical: https:\/\/example.test\/ar\/man-nahnu\n---\n/,
    );
  });

  test("each page's head names its twin", async () => {
    const head = headElements((await get(app.url, '/ar/man-nahnu')).body);
    const link = head.find((element) => element.tag === 'link' && element.attributes.type === 'text/markdown');
    assert.deepEqual(link?.attributes, { rel: 'alternate', type: 'text/markdown', href: '/ar/man-nahnu.md' });
  });

  test('no twin for a path that is no page, nor at the default path of a localized one', async () => {
    assert.equal((await get(app.url, '/en/nope.md')).status, 404);
    assert.notEqual((await get(app.url, '/ar/about.md')).status, 200);
  });
});
