import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeJsonForHtml } from '../../../src/routes/page-data.ts';
import { type StructuredInput, structuredData } from '../../../src/server/site/structured-data.ts';

function makeInput(overrides: Partial<StructuredInput> = {}): StructuredInput {
  return {
    kind: 'docs',
    siteName: 'polysite',
    url: 'https://example.test/ja/docs/guides/install',
    title: 'インストール',
    description: '手順です。',
    language: 'ja',
    breadcrumbs: [],
    ...overrides,
  };
}

const parsed = (input: Partial<StructuredInput>) => JSON.parse(structuredData(makeInput(input))!);

test('a home page is a WebSite', () => {
  assert.deepEqual(parsed({ kind: 'home', url: 'https://example.test/ja', title: 'ようこそ' }), {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: 'polysite',
    url: 'https://example.test/ja',
    inLanguage: 'ja',
    description: '手順です。',
  });
});

test('a docs page is a TechArticle with its breadcrumb trail, positions from 1', () => {
  const data = parsed({
    breadcrumbs: [
      { name: 'ドキュメント', url: 'https://example.test/ja/docs' },
      { name: 'インストール', url: 'https://example.test/ja/docs/guides/install' },
    ],
  });
  assert.equal(data['@context'], 'https://schema.org');
  const [article, trail] = data['@graph'];
  assert.equal(article['@type'], 'TechArticle');
  assert.equal(article.headline, 'インストール');
  assert.equal(article.inLanguage, 'ja');
  assert.equal(article.url, 'https://example.test/ja/docs/guides/install');
  assert.equal(article.datePublished, undefined, 'no date known, none said');
  assert.equal(article.author, undefined);
  assert.deepEqual(trail, {
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'ドキュメント', item: 'https://example.test/ja/docs' },
      { '@type': 'ListItem', position: 2, name: 'インストール', item: 'https://example.test/ja/docs/guides/install' },
    ],
  });
});

test('the docs index alone is no trail: a TechArticle without a BreadcrumbList', () => {
  const data = parsed({ breadcrumbs: [{ name: 'ドキュメント', url: 'https://example.test/ja/docs' }] });
  assert.equal(data['@type'], 'TechArticle');
  assert.equal(data['@graph'], undefined);
});

test('a blog post is an Article with its dates, author and image', () => {
  const data = parsed({ kind: 'blog-post', date: '2026-09-14', author: 'فريق polysite', image: 'https://example.test/assets/a.png' });
  assert.equal(data['@type'], 'Article');
  assert.equal(data.datePublished, '2026-09-14');
  assert.equal(data.dateModified, '2026-09-14', 'not updated since');
  assert.deepEqual(data.author, { '@type': 'Person', name: 'فريق polysite' });
  assert.equal(data.image, 'https://example.test/assets/a.png');
  assert.equal(parsed({ kind: 'blog-post', date: '2026-09-14', updated: '2026-10-01' }).dateModified, '2026-10-01');
});

test('other pages have none', () => {
  for (const kind of ['article', 'blog-index', null]) assert.equal(structuredData(makeInput({ kind })), null);
});

test('escaped exactly like the page data: no </script> or <!-- can end the element, and it parses back to the same text', () => {
  const title = '</script><!-- & \u2028 \u2029 "x"';
  const text = structuredData(makeInput({ kind: 'blog-post', title }))!;
  assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
  assert.equal(text, escapeJsonForHtml(JSON.stringify(JSON.parse(text))));
  assert.equal(JSON.parse(text).headline, title);
});
