import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveApp } from '../../helpers/app.ts';
import { HOSTILE_TITLE, IMAGES, makeBlogSite } from '../../helpers/blog-site.ts';
import { bodyElements, type HtmlElement, headElements, metaValues } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { ROOT, startServer } from '../../helpers/server.ts';
import { readManifest } from '../../../src/server/site/manifest.ts';
import type { PageData } from '../../../src/routes/types.ts';

/** Open Graph, Twitter, feed links and JSON-LD as served: HTML parsed with parse5, the JSON-LD with JSON.parse. */
let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: makeBlogSite(), DEFAULT_LOCALE: 'en' }, IMAGES);
});
after(() => app.close());

const message = (locale: string, key: string): string =>
  JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'))[key];

async function headOf(path: string): Promise<HtmlElement[]> {
  const response = await get(app.url, path);
  assert.ok(response.status === 200 || response.status === 404, `${path}: ${response.status}`);
  return headElements(response.body);
}

function jsonLdOf(head: HtmlElement[]) {
  const scripts = head.filter((element) => element.tag === 'script' && element.attributes.type === 'application/ld+json');
  assert.equal(scripts.length, 1, 'one JSON-LD script');
  return JSON.parse(scripts[0]!.text);
}

const one = (head: HtmlElement[], key: string) => {
  const values = metaValues(head, key);
  assert.equal(values.length, 1, `one ${key}: ${JSON.stringify(values)}`);
  return values[0];
};

describe('Open Graph and Twitter tags', () => {
  test('a post with `<&"\'`, RTL and an emoji in its title: an article, its own image, its dates; every value as written', async () => {
    const head = await headOf('/en/blog/hostile');
    assert.equal(one(head, 'og:type'), 'article');
    assert.equal(one(head, 'og:title'), HOSTILE_TITLE);
    assert.equal(one(head, 'og:description'), `A summary with ${HOSTILE_TITLE}`);
    assert.equal(one(head, 'og:url'), 'https://example.test/en/blog/hostile');
    assert.equal(one(head, 'og:site_name'), 'polysite');
    assert.equal(one(head, 'og:locale'), 'en_US');
    assert.deepEqual(metaValues(head, 'og:locale:alternate'), ['ar_AR']);
    assert.equal(one(head, 'og:image'), 'https://example.test/assets/hostile-CCCC3333.png');
    assert.equal(one(head, 'og:image:width'), '1000');
    assert.equal(one(head, 'og:image:height'), '500');
    assert.equal(one(head, 'og:image:alt'), message('en', 'share.pageImageAlt').replace('{title}', HOSTILE_TITLE));
    assert.equal(one(head, 'article:published_time'), '2026-03-01');
    assert.equal(one(head, 'article:modified_time'), '2026-03-05');
    assert.equal(one(head, 'twitter:card'), 'summary_large_image');
    // The title did not end the head early: everything after it is still in <head>.
    assert.ok(head.some((element) => element.tag === 'link' && element.attributes.rel === 'expect'));
  });

  test('an Arabic docs page: website, ar_AR, its locale’s image with the localized alt', async () => {
    const head = await headOf('/ar/docs/guides/install');
    assert.equal(one(head, 'og:type'), 'website');
    assert.equal(one(head, 'og:locale'), 'ar_AR');
    assert.equal(one(head, 'og:url'), 'https://example.test/ar/docs/guides/install');
    assert.deepEqual(metaValues(head, 'og:locale:alternate'), ['en_US']);
    assert.equal(one(head, 'og:image'), 'https://example.test/assets/share-ar-BBBB2222.png');
    assert.equal(one(head, 'og:image:width'), '1200');
    assert.equal(one(head, 'og:image:height'), '630');
    const alt = message('ar', 'share.imageAlt')
      .replace('{site}', message('ar', 'site.name'))
      .replace('{tagline}', message('ar', 'site.tagline'));
    assert.equal(one(head, 'og:image:alt'), alt);
    assert.equal(metaValues(head, 'article:published_time').length, 0);
  });

  test('a locale without its own share.png shares the default locale’s', async () => {
    const { 'ar/share.png': _, ...withoutArabic } = IMAGES;
    const other = await serveApp({ LOCALES_DIR: makeBlogSite(), DEFAULT_LOCALE: 'en' }, withoutArabic);
    try {
      const response = await get(other.url, '/ar/docs/guides/install');
      assert.equal(one(headElements(response.body), 'og:image'), 'https://example.test/assets/share-en-AAAA1111.png');
    } finally {
      other.close();
    }
  });

  test('a page that exists only in English: og:locale:alternate names no locale that lacks it', async () => {
    const head = await headOf('/en/about');
    assert.equal(one(head, 'og:locale'), 'en_US');
    assert.deepEqual(metaValues(head, 'og:locale:alternate'), []);
  });

  test('not-found and search pages share nothing', async () => {
    for (const path of ['/en/nope', '/en/search?q=post']) {
      const head = await headOf(path);
      assert.deepEqual(metaValues(head, 'og:title'), [], path);
      assert.ok(!head.some((element) => element.tag === 'script' && element.attributes.type === 'application/ld+json'), path);
    }
  });
});

describe('the feed link', () => {
  test('every page of a locale advertises its feed, 404 and search included', async () => {
    for (const [locale, paths] of [
      ['en', ['/en', '/en/about', '/en/docs/guides/install', '/en/blog', '/en/blog/first', '/en/nope', '/en/search?q=post']],
      ['ar', ['/ar', '/ar/docs', '/ar/blog/first', '/ar/nope']],
    ] as const) {
      const title = locale === 'en' ? 'Blog · polysite' : 'المدونة · polysite';
      for (const path of paths) {
        const feeds = (await headOf(path)).filter((element) => element.attributes.type === 'application/atom+xml');
        assert.deepEqual(
          feeds.map((element) => element.attributes),
          [{ rel: 'alternate', type: 'application/atom+xml', title, href: `https://example.test/${locale}/blog/feed.xml` }],
          path,
        );
      }
    }
  });

  test('the blog listing shows a visible link to it, in the page’s language', async () => {
    for (const locale of ['en', 'ar']) {
      const { body } = await get(app.url, `/${locale}/blog`);
      const links = bodyElements(body, (element) => element.tag === 'a' && element.attributes.type === 'application/atom+xml');
      assert.deepEqual(
        links.map((link) => [link.attributes.href, link.text]),
        [[`/${locale}/blog/feed.xml`, message(locale, 'blog.feed')]],
      );
      assert.equal((await get(app.url, links[0]!.attributes.href!)).status, 200, 'the link leads to the feed');
    }
  });
});

describe('JSON-LD', () => {
  test('a home page is a WebSite', async () => {
    assert.deepEqual(jsonLdOf(await headOf('/ar')), {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: 'polysite',
      url: 'https://example.test/ar',
      inLanguage: 'ar',
      description: 'الصفحة الرئيسية.',
    });
  });

  test('a blog post is an Article; its title cannot end the script element', async () => {
    const { body } = await get(app.url, '/en/blog/hostile');
    assert.doesNotMatch(body.slice(0, body.indexOf('</head>')), /<\/script><b>/);
    const data = jsonLdOf(headElements(body));
    assert.equal(data['@type'], 'Article');
    assert.equal(data.headline, HOSTILE_TITLE);
    assert.equal(data.inLanguage, 'en');
    assert.equal(data.url, 'https://example.test/en/blog/hostile');
    assert.equal(data.datePublished, '2026-03-01');
    assert.equal(data.dateModified, '2026-03-05');
    assert.deepEqual(data.author, { '@type': 'Person', name: 'Grace & "Co"' });
    assert.equal(data.image, 'https://example.test/assets/hostile-CCCC3333.png');
  });

  test('a docs page is a TechArticle with its breadcrumbs: localized titles, the untranslated section in English, absolute URLs', async () => {
    const data = jsonLdOf(await headOf('/ar/docs/guides/install'));
    const [article, trail] = data['@graph'];
    assert.equal(article['@type'], 'TechArticle');
    assert.equal(article.headline, 'التثبيت');
    assert.equal(article.inLanguage, 'ar');
    assert.deepEqual(
      trail.itemListElement.map((item: { position: number; name: string; item: string }) => [item.position, item.name, item.item]),
      [
        [1, 'التوثيق', 'https://example.test/ar/docs'],
        [2, 'Guides', 'https://example.test/ar/docs/guides'],
        [3, 'التثبيت', 'https://example.test/ar/docs/guides/install'],
      ],
    );
  });

  test('the blog listing and other pages have none', async () => {
    for (const path of ['/en/blog', '/en/about']) {
      const head = await headOf(path);
      assert.ok(!head.some((element) => element.attributes.type === 'application/ld+json'), path);
    }
  });
});

test('the page data carries the same head the document was written from', async () => {
  for (const path of ['/en/blog/hostile', '/ar/docs/guides/install', '/ar', '/en/nope']) {
    const html = await get(app.url, path);
    const data = await get(app.url, `/_data/${app.site.manifest.build}${path}.json`);
    const { head } = (JSON.parse(data.body) as { page: PageData }).page;
    const elements = headElements(html.body);
    const meta = elements.filter(
      (element) => element.tag === 'meta' && (element.attributes.property || element.attributes.name?.startsWith('twitter:')),
    );
    assert.deepEqual(
      meta.map((element) => element.attributes),
      head.meta,
      path,
    );
    // The head's further links: the feed and the page's Markdown twin (the hreflang alternates have no type).
    const links = elements.filter((element) => element.tag === 'link' && element.attributes.rel === 'alternate' && element.attributes.type);
    assert.deepEqual(
      links.map((element) => element.attributes),
      head.links,
      path,
    );
    const script = elements.find((element) => element.attributes.type === 'application/ld+json');
    assert.equal(script?.text ?? null, head.jsonLd, path);
  }
});

describe('the default site, as built', () => {
  test('og:image names each locale’s share image from the build’s manifest, absolute, with its size', async () => {
    const manifest = readManifest(join(ROOT, 'dist'));
    const server = await startServer();
    try {
      for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
        const head = headElements((await get(server.url, `/${locale}/docs`)).body);
        const image = manifest.images[`${locale}/share.png`];
        if (!image) {
          // A build without share images: no image tags at all, and the small card.
          assert.deepEqual(metaValues(head, 'og:image'), [], locale);
          assert.deepEqual(metaValues(head, 'twitter:card'), ['summary'], locale);
          continue;
        }
        assert.deepEqual(metaValues(head, 'og:image'), [`https://example.test${image.path}`], locale);
        assert.deepEqual(metaValues(head, 'og:image:width'), [String(image.width)], locale);
        assert.deepEqual(metaValues(head, 'og:image:height'), [String(image.height)], locale);
        assert.deepEqual(metaValues(head, 'twitter:card'), ['summary_large_image'], locale);
        const served = await get(server.url, image.path);
        assert.equal(served.status, 200, `${locale}: ${image.path} is served`);
        assert.equal(served.headers['content-type'], 'image/png');
      }
    } finally {
      await server.stop();
    }
  });
});
