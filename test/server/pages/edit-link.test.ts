import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { makeLocales, makePage, realMessages } from '../../helpers/content.ts';

const EDIT_URL = 'https://git.example.test/org/site/edit/main/locales/{path}';

function site() {
  return makeLocales({
    en: {
      'messages.json': realMessages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/install guide.md': makePage({ title: 'Install' }),
      'pages/about.md': makePage({ title: 'About' }),
    },
    de: {
      'messages.json': realMessages('de'),
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/about.md': makePage({ title: 'Über uns', slug: 'ueber-uns' }),
    },
  });
}

const editLinks = (html: string) =>
  bodyElements(html, (element) => element.tag === 'a' && element.attributes.rel === 'nofollow').map((a) => ({
    href: a.attributes.href,
    text: a.text,
  }));

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: site(), DEFAULT_LOCALE: 'en', EDIT_URL });
});
after(() => app.close());

test("'Edit this page' links the file of the locale the reader is on, in that locale's words", async () => {
  assert.deepEqual(editLinks((await get(app.url, '/en/about')).body), [
    { href: 'https://git.example.test/org/site/edit/main/locales/en/pages/about.md', text: realMessages('en')['page.edit'] },
  ]);
  assert.deepEqual(editLinks((await get(app.url, '/de/ueber-uns')).body), [
    { href: 'https://git.example.test/org/site/edit/main/locales/de/pages/about.md', text: realMessages('de')['page.edit'] },
  ]);
});

test("a fallback page links the default locale file it shows, its path percent-encoded, and where the locale's file would be made", async () => {
  assert.deepEqual(editLinks((await get(app.url, '/de/docs/install%20guide')).body), [
    { href: 'https://git.example.test/org/site/edit/main/locales/en/pages/docs/install%20guide.md', text: realMessages('de')['page.edit'] },
    {
      href: 'https://git.example.test/org/site/new/main/locales/de/pages/docs?filename=install%20guide.md',
      text: realMessages('de')['page.translate'],
    },
  ]);
  // A translated page has nothing to translate.
  assert.equal(editLinks((await get(app.url, '/de/ueber-uns')).body).length, 1);
});

test("'Translate this page' in GitHub's and GitLab's new-file forms; none for an edit URL of another form", async () => {
  const cases: [string, string | undefined][] = [
    ['https://github.com/org/site/edit/main/{path}', 'https://github.com/org/site/new/main/de/pages/docs?filename=install%20guide.md'],
    [
      'https://gitlab.com/org/site/-/edit/main/content/{path}',
      'https://gitlab.com/org/site/-/new/main/content/de/pages/docs?file_name=install%20guide.md',
    ],
    ['https://cms.example.test/open?file={path}', undefined],
  ];
  for (const [editUrl, translate] of cases) {
    const other = await serveApp({ LOCALES_DIR: site(), DEFAULT_LOCALE: 'en', EDIT_URL: editUrl });
    try {
      const links = editLinks((await get(other.url, '/de/docs/install%20guide')).body);
      assert.deepEqual(links[1]?.href, translate, editUrl);
      assert.equal(links.length, translate ? 2 : 1, editUrl);
    } finally {
      other.close();
    }
  }
});

test('without EDIT_URL there is no edit link', async () => {
  const plain = await serveApp({ LOCALES_DIR: site(), DEFAULT_LOCALE: 'en' });
  try {
    assert.deepEqual(editLinks((await get(plain.url, '/en/about')).body), []);
  } finally {
    plain.close();
  }
});
