import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements, headElements, metaValues } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';

// `unlisted: true`: served at its path, named by no list, and kept out of search engines.

const unlisted = (front: Record<string, string | number>, body: string) => makePage(front, body).replace('---\n', '---\nunlisted: true\n');

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  const locales = makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      'pages/docs/first.md': makePage({ title: 'First guide', order: 1 }, 'Zebra crossing.\n'),
      'pages/docs/hidden.md': unlisted({ title: 'Hidden recipe', order: 2 }, 'Zebra stripes. Back to [the first](./first.md).\n'),
      'pages/docs/third.md': makePage({ title: 'Third guide', order: 3 }, 'Zebra herd.\n'),
      'pages/docs/more/one.md': makePage({ title: 'More one' }),
      'pages/docs/more/quiet.md': unlisted({ title: 'Quiet more' }, 'Text.\n'),
      'pages/blog/index.md': makePage({ title: 'Blog' }),
      'pages/blog/out.md': makePage({ title: 'Out now', date: '2026-01-02' }),
      'pages/blog/sneak.md': unlisted({ title: 'Sneak peek', date: '2026-01-03' }, 'Zebra preview.\n'),
    },
    de: { 'messages.json': realMessages('de'), 'pages/index.md': makePage({ title: 'Start' }) },
  });
  app = await serveApp({ LOCALES_DIR: locales, DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

const NAMES = /Hidden recipe|Quiet more|Sneak peek|docs\/hidden|more\/quiet|blog\/sneak/;

describe('an unlisted page', () => {
  test('is served, in every locale, with noindex beside its canonical link, and has its Markdown twin', async () => {
    for (const path of ['/en/docs/hidden', '/de/docs/hidden', '/en/blog/sneak']) {
      const page = await get(app.url, path);
      assert.equal(page.status, 200, path);
      const head = headElements(page.body);
      assert.deepEqual(metaValues(head, 'robots'), ['noindex'], path);
      assert.ok(
        head.some((element) => element.tag === 'link' && element.attributes.rel === 'canonical'),
        path,
      );
    }
    assert.equal((await get(app.url, '/en/docs/hidden.md')).status, 200);
    // A listed page says nothing to robots.
    assert.deepEqual(metaValues(headElements((await get(app.url, '/en/docs/first')).body), 'robots'), []);
  });

  test("is in no sidebar and no previous/next: its neighbours link each other, it shows its folder's sidebar", async () => {
    for (const path of ['/en/docs/first', '/en/docs/third', '/en/docs/hidden', '/en/docs/more/one', '/en/docs']) {
      const body = (await get(app.url, path)).body;
      // The page's own links to itself (the language switcher) aside.
      const links = bodyElements(body, (element) => element.tag === 'a')
        .map((element) => element.attributes.href ?? '')
        .filter((href) => !href.endsWith(path.slice(3)) || path === '/en/docs');
      assert.ok(!links.some((href) => NAMES.test(href)), `${path}: ${links.join(' ')}`);
    }
    const first = (await get(app.url, '/en/docs/first')).body;
    const pager = bodyElements(first, (element) => element.tag === 'a' && element.attributes.href === '/en/docs/third');
    assert.ok(pager.length > 0, 'first links the third as next');
  });

  test("is in no section's list, no blog list, no search, no sitemap, no llms file and no feed", async () => {
    const answers = await Promise.all(
      [
        '/en/docs/more',
        '/en/blog',
        '/en/search?q=zebra',
        '/sitemap.xml',
        '/en/llms.txt',
        '/en/llms-full.txt',
        '/en/blog/feed.xml',
        '/de/llms.txt',
      ].map(async (path) => [path, await get(app.url, path)] as const),
    );
    for (const [path, answer] of answers) {
      assert.equal(answer.status, 200, path);
      assert.doesNotMatch(answer.body, NAMES, `${path}: ${answer.body.match(new RegExp(`.{80}(${NAMES.source}).{40}`))?.[0]}`);
    }
    // The lists do name the listed pages: the test is not passing for an empty list.
    const [, search] = answers[2]!;
    assert.match(search.body, /First guide/);
    assert.match(answers[4]![1].body, /First guide/);
    assert.match(answers[6]![1].body, /Out now/);
  });

  test('is in no search index a browser downloads', async () => {
    for (const url of Object.values(app.site.search.indexes)) {
      const index = await get(app.url, url as string);
      assert.equal(index.status, 200, url as string);
      assert.doesNotMatch(index.body, /Hidden recipe|Sneak peek|Quiet more/, url as string);
    }
  });
});
