import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breadcrumbs, openGraphLocale, type ShareInput, shareTags } from '../../../src/server/site/share-tags.ts';
import type { SourcePage } from '../../../src/server/content/site.ts';
import type { HeadTag } from '../../../src/routes/types.ts';

const HOSTILE_TITLE = `</script><b>Tom & "Jerry"</b> it's مرحبا 🎉`;

function makeInput(overrides: Partial<ShareInput> = {}): ShareInput {
  return {
    kind: 'docs',
    language: 'de',
    siteName: 'Seite',
    title: 'Installieren',
    description: 'Schritt für Schritt.',
    canonical: 'https://example.test/de/docs/install',
    alternates: [
      { hreflang: 'en', href: 'https://example.test/en/docs/install' },
      { hreflang: 'de', href: 'https://example.test/de/docs/install' },
      { hreflang: 'ar', href: 'https://example.test/ar/docs/install' },
      { hreflang: 'x-default', href: 'https://example.test/en/docs/install' },
    ],
    image: { url: 'https://example.test/assets/share-de-1234.png', width: 1200, height: 630, alt: 'Seite – Ein Slogan' },
    feed: { title: 'Blog · Seite', href: 'https://example.test/de/blog/feed.xml' },
    breadcrumbs: [],
    ...overrides,
  };
}

/** The meta tags as [property or name, content] pairs, in order. */
const pairs = (meta: HeadTag[]) => meta.map((tag) => [tag.property ?? tag.name, tag.content]);

test('a docs page: website, canonical URL, its language and the locales that have it, the image with its size and alt, a large card', () => {
  assert.deepEqual(pairs(shareTags(makeInput()).meta), [
    ['og:type', 'website'],
    ['og:title', 'Installieren'],
    ['og:description', 'Schritt für Schritt.'],
    ['og:url', 'https://example.test/de/docs/install'],
    ['og:site_name', 'Seite'],
    ['og:locale', 'de_DE'],
    ['og:locale:alternate', 'en_US'],
    ['og:locale:alternate', 'ar_AR'],
    ['og:image', 'https://example.test/assets/share-de-1234.png'],
    ['og:image:width', '1200'],
    ['og:image:height', '630'],
    ['og:image:alt', 'Seite – Ein Slogan'],
    ['twitter:card', 'summary_large_image'],
    ['twitter:image:alt', 'Seite – Ein Slogan'],
  ]);
});

test('Open Graph tags are properties, Twitter tags names', () => {
  const { meta } = shareTags(makeInput());
  for (const tag of meta) {
    if (tag.property) assert.match(tag.property, /^(og|article):/);
    else assert.match(tag.name!, /^twitter:/);
  }
});

test('a blog post is an article with its publication and modification days', () => {
  const meta = pairs(shareTags(makeInput({ kind: 'blog-post', date: '2026-09-14', updated: '2026-10-01' })).meta);
  assert.deepEqual(meta[0], ['og:type', 'article']);
  assert.ok(meta.some(([key, value]) => key === 'article:published_time' && value === '2026-09-14'));
  assert.ok(meta.some(([key, value]) => key === 'article:modified_time' && value === '2026-10-01'));
  const never = pairs(shareTags(makeInput({ kind: 'docs', date: '2026-09-14' })).meta);
  assert.ok(!never.some(([key]) => key!.startsWith('article:')), 'only posts are articles');
});

test('without a share image there are no image tags and the card is the small one', () => {
  const meta = pairs(shareTags(makeInput({ image: null })).meta);
  assert.ok(!meta.some(([key]) => key!.includes('image')));
  assert.deepEqual(meta.at(-1), ['twitter:card', 'summary']);
});

test('an untranslated page speaks its content’s language; only other real translations are alternates', () => {
  const meta = pairs(
    shareTags(
      makeInput({
        language: 'en',
        alternates: [
          { hreflang: 'en', href: 'x' },
          { hreflang: 'x-default', href: 'x' },
        ],
      }),
    ).meta,
  );
  assert.deepEqual(
    meta.filter(([key]) => key!.startsWith('og:locale')),
    [['og:locale', 'en_US']],
  );
});

test('every page links its locale’s feed; none without a blog', () => {
  assert.deepEqual(shareTags(makeInput()).links, [
    { rel: 'alternate', type: 'application/atom+xml', title: 'Blog · Seite', href: 'https://example.test/de/blog/feed.xml' },
  ]);
  assert.deepEqual(shareTags(makeInput({ feed: null })).links, []);
});

test('titles go into the tags as text; the JSON-LD keeps them inert inside its script element', () => {
  const head = shareTags(makeInput({ title: HOSTILE_TITLE, kind: 'blog-post', date: '2026-01-02' }));
  assert.deepEqual(pairs(head.meta)[1], ['og:title', HOSTILE_TITLE]);
  assert.doesNotMatch(head.jsonLd!, /<|>|&/);
  assert.equal(JSON.parse(head.jsonLd!).headline, HOSTILE_TITLE);
});

test('no canonical URL, no structured data', () => {
  assert.equal(shareTags(makeInput({ canonical: null })).jsonLd, null);
});

for (const [tag, expected] of [
  ['en', 'en_US'],
  ['de', 'de_DE'],
  ['fr', 'fr_FR'],
  ['ja', 'ja_JP'],
  ['ar', 'ar_AR'],
  ['pt-BR', 'pt_BR'],
  ['en-GB', 'en_GB'],
  ['es', 'es_ES'],
] as const) {
  test(`og:locale of ${tag} is ${expected}`, () => assert.equal(openGraphLocale(tag), expected));
}

test('breadcrumbs: the docs index, each folder with an index page, the page; titles of this locale, served URLs', () => {
  const page = (slug: string, title: string) => [slug, { slug, title } as SourcePage] as const;
  const pages = new Map([page('docs', 'Doku'), page('docs/guides', 'Anleitungen'), page('docs/guides/deep/install', 'Installieren')]);
  const served: Record<string, string> = {
    docs: '/de/docs',
    'docs/guides': '/de/docs/anleitungen',
    'docs/guides/deep/install': '/de/docs/anleitungen/deep/installation',
  };
  const trail = breadcrumbs('docs/guides/deep/install', 'de', pages, { pathOf: (_locale, slug) => served[slug]! }, 'https://example.test');
  assert.deepEqual(trail, [
    { name: 'Doku', url: 'https://example.test/de/docs' },
    { name: 'Anleitungen', url: 'https://example.test/de/docs/anleitungen' },
    { name: 'Installieren', url: 'https://example.test/de/docs/anleitungen/deep/installation' },
  ]);
});
