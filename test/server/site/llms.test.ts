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
