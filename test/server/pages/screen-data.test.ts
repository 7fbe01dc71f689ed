import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readingMinutes, SIDEBAR_WINDOW, screenMaker, type TreeScreen } from '../../../src/server/pages/screen-data.ts';
import type { NavNode } from '../../../src/routes/types.ts';
import { makePage, makeSite } from '../../helpers/content.ts';
import { makeServerIntls } from '../../../src/server/site/server-intl.ts';

/** A docs tree: index, two top-level pages, a section with two pages and a sub-section. */
const DOCS = {
  'pages/index.md': makePage({ title: 'Home' }),
  'pages/docs/index.md': makePage({ title: 'Docs' }),
  'pages/docs/start.md': makePage({ title: 'Start', order: 1 }),
  'pages/docs/guides/index.md': makePage({ title: 'Guides', order: 2, nav: 'All guides' }),
  'pages/docs/guides/install.md': makePage({ title: 'Install', order: 1 }),
  'pages/docs/guides/upgrade.md': makePage({ title: 'Upgrade', order: 2 }),
  'pages/docs/guides/deep/index.md': makePage({ title: 'Deep', order: 3 }),
  'pages/docs/guides/deep/down.md': makePage({ title: 'Down' }),
  'pages/docs/reference.md': makePage({ title: 'Reference', order: 3 }),
};

async function screensOf(tree: Record<string, Record<string, string | object>>, locale = Object.keys(tree)[0]!) {
  const { site, messages } = await makeSite(tree);
  const pages = site.pages.get(locale)!;
  const screenFor = screenMaker(makeServerIntls(messages, site.defaultLocale).get(locale)!, pages);
  return (slug: string) => screenFor(pages.get(slug)!)!;
}

function docs(screen: TreeScreen) {
  assert.equal(screen.kind, 'docs');
  return screen as Extract<TreeScreen, { kind: 'docs' }>;
}

/** The sidebar as indented titles, to compare whole shapes at a glance. */
function outline(nodes: NavNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [`${'  '.repeat(depth)}${node.title}`, ...outline(node.children, depth + 1)]);
}

test('a top-level docs page shows every section closed', async () => {
  const screen = docs((await screensOf({ en: DOCS }))('docs/start'));
  assert.deepEqual(outline(screen.sidebar), ['Docs', 'Start', 'All guides', 'Reference']);
});

test('a page in a section opens that section only: its siblings, not deeper sections', async () => {
  const screen = docs((await screensOf({ en: DOCS }))('docs/guides/install'));
  assert.deepEqual(outline(screen.sidebar), ['Docs', 'Start', 'All guides', '  Install', '  Upgrade', '  Deep', 'Reference']);
});

test('a deep page opens every section on its way', async () => {
  const screen = docs((await screensOf({ en: DOCS }))('docs/guides/deep/down'));
  assert.deepEqual(outline(screen.sidebar), ['Docs', 'Start', 'All guides', '  Install', '  Upgrade', '  Deep', '    Down', 'Reference']);
});

test('pages of one section share one sidebar object', async () => {
  const screenOf = await screensOf({ en: DOCS });
  assert.equal(docs(screenOf('docs/guides/install')).sidebar, docs(screenOf('docs/guides/upgrade')).sidebar);
  assert.equal(docs(screenOf('docs/guides')).sidebar, docs(screenOf('docs/guides/install')).sidebar);
  assert.notEqual(docs(screenOf('docs/start')).sidebar, docs(screenOf('docs/guides/install')).sidebar);
});

test('previous and next follow the whole tree depth first, closed sections included', async () => {
  const screenOf = await screensOf({ en: DOCS });
  const order = [
    'docs',
    'docs/start',
    'docs/guides',
    'docs/guides/install',
    'docs/guides/upgrade',
    'docs/guides/deep',
    'docs/guides/deep/down',
    'docs/reference',
  ];
  for (const [index, slug] of order.entries()) {
    const screen = docs(screenOf(slug));
    assert.equal(screen.previous?.path ?? null, index > 0 ? `/en/${order[index - 1]}` : null, `previous of ${slug}`);
    assert.equal(screen.next?.path ?? null, index < order.length - 1 ? `/en/${order[index + 1]}` : null, `next of ${slug}`);
  }
});

test('links to untranslated pages carry the language of their title', async () => {
  const screenOf = await screensOf({ en: DOCS, de: { 'pages/docs/index.md': makePage({ title: 'Doku' }) } }, 'de');
  const screen = docs(screenOf('docs/start'));
  assert.equal(screen.sidebar[0]!.title, 'Doku');
  assert.equal(screen.sidebar[0]!.lang, undefined);
  assert.equal(screen.sidebar[1]!.path, '/de/docs/start');
  assert.equal(screen.sidebar[1]!.lang, 'en');
});

test('the blog lists posts newest first, the home page the latest three', async () => {
  const posts = Object.fromEntries(
    ['2026-01-05', '2026-03-01', '2025-12-24', '2026-02-10'].map((date, i) => [
      `pages/blog/post-${i}.md`,
      makePage({ title: `Post ${i}`, date }),
    ]),
  );
  const screenOf = await screensOf({ en: { 'pages/index.md': makePage(), 'pages/blog/index.md': makePage(), ...posts } });
  const blog = screenOf('blog');
  assert.equal(blog.kind, 'blog-index');
  assert.deepEqual(blog.kind === 'blog-index' && blog.posts.map((post) => [post.title, post.isoDate, post.date]), [
    ['Post 1', '2026-03-01', 'March 1, 2026'],
    ['Post 3', '2026-02-10', 'February 10, 2026'],
    ['Post 0', '2026-01-05', 'January 5, 2026'],
    ['Post 2', '2025-12-24', 'December 24, 2025'],
  ]);
  const home = screenOf('');
  assert.deepEqual(home.kind === 'home' && home.posts.map((post) => post.title), ['Post 1', 'Post 3', 'Post 0']);
});

test('a post has its date in the locale, its author and a reading time', async () => {
  const body = `${'word '.repeat(1000)}\n`;
  const screenOf = await screensOf({ de: { 'pages/blog/p.md': makePage({ title: 'P', date: '2026-03-01', author: 'Ana' }, body) } });
  const { html, ...post } = screenOf('blog/p') as Extract<TreeScreen, { kind: 'blog-post' }>;
  assert.deepEqual(post, {
    kind: 'blog-post',
    title: 'P',
    date: '1. März 2026',
    isoDate: '2026-03-01',
    author: 'Ana',
    readingMinutes: 5,
  });
  assert.match(html, /^<p>word word/);
});

test('reading time follows the script: Japanese is read by the character, at least one minute', () => {
  assert.equal(readingMinutes({ contentLocale: 'en', textLength: 5500 }), 5);
  assert.equal(readingMinutes({ contentLocale: 'ja', textLength: 5500 }), 11);
  assert.equal(readingMinutes({ contentLocale: 'ja-JP', textLength: 1000 }), 2);
  assert.equal(readingMinutes({ contentLocale: 'fr', textLength: 10 }), 1);
});

test('any other page is an article', async () => {
  const screenOf = await screensOf({ en: { 'pages/about.md': makePage({ title: 'About' }) } });
  assert.equal(screenOf('about').kind, 'article');
});

test('a docs page with three sections or more gets "On this page": its h2 and h3 headings, in order', async () => {
  const body = '## One\n\n### One a\n\n#### Too deep\n\n## Two\n\n## Three\n\n### Three a\n';
  const screenOf = await screensOf({ en: { ...DOCS, 'pages/docs/start.md': makePage({ title: 'Start' }, body) } });
  assert.deepEqual(docs(screenOf('docs/start')).toc, [
    { id: 'one', text: 'One', level: 2 },
    { id: 'one-a', text: 'One a', level: 3 },
    { id: 'two', text: 'Two', level: 2 },
    { id: 'three', text: 'Three', level: 2 },
    { id: 'three-a', text: 'Three a', level: 3 },
  ]);
});

test('a docs page with fewer than three sections has no "On this page", however many subsections', async () => {
  const body = '## One\n\n### A\n\n### B\n\n### C\n\n## Two\n\n### D\n';
  const screenOf = await screensOf({ en: { ...DOCS, 'pages/docs/start.md': makePage({ title: 'Start' }, body) } });
  assert.deepEqual(docs(screenOf('docs/start')).toc, []);
  assert.deepEqual(docs(screenOf('docs/reference')).toc, []);
});

/** A docs tree with one flat section of `count` pages (`docs/big/p<n>`, titled `Tool <n>`) and a small one. */
function flatSection(count: number) {
  const tree: Record<string, string> = { ...DOCS, 'pages/docs/big/index.md': makePage({ title: 'Big', order: 4 }) };
  for (let n = 0; n < count; n++) tree[`pages/docs/big/p${n}.md`] = makePage({ title: `Tool ${n}`, order: n });
  return tree;
}

/** Every link a sidebar carries. */
function linkCount(nodes: NavNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + linkCount(node.children), 0);
}

test('a page in a long section shows a window of its siblings around itself, and the section says how many it has', async () => {
  const screenOf = await screensOf({ en: flatSection(300) });
  const screen = docs(screenOf('docs/big/p150'));
  const big = screen.sidebar.find((node) => node.title === 'Big')!;
  assert.equal(big.total, 300);
  assert.equal(big.children.length, SIDEBAR_WINDOW);
  assert.ok(big.children.some((node) => node.path === '/en/docs/big/p150'));
  // The first and last pages of the section see the window's start and end.
  assert.equal(docs(screenOf('docs/big/p0')).sidebar.find((node) => node.title === 'Big')!.children[0]!.title, 'Tool 0');
  assert.equal(
    docs(screenOf('docs/big/p299'))
      .sidebar.find((node) => node.title === 'Big')!
      .children.at(-1)!.title,
    'Tool 299',
  );
  // Short sections are whole, with no total.
  const guides = docs(screenOf('docs/guides/install')).sidebar.find((node) => node.title === 'All guides')!;
  assert.equal(guides.total, undefined);
  assert.equal(guides.children.length, 3);
});

test('what a page of a long section carries does not grow with the section', async () => {
  const small = docs((await screensOf({ en: flatSection(60) }))('docs/big/p30'));
  const large = docs((await screensOf({ en: flatSection(600) }))('docs/big/p300'));
  assert.equal(linkCount(large.sidebar), linkCount(small.sidebar));
  assert.equal(large.listing, undefined, 'only the section’s own page lists its pages');
});

test('a long section’s own page lists every one of its pages, by title under their initial', async () => {
  const tree = flatSection(40);
  tree['pages/docs/big/zebra.md'] = makePage({ title: 'zebra', order: 100 });
  tree['pages/docs/big/eclair.md'] = makePage({ title: 'Éclair', order: 101 });
  tree['pages/docs/big/dash.md'] = makePage({ title: '--help', order: 102 });
  const screen = docs((await screensOf({ en: tree }))('docs/big'));
  const listing = screen.listing!;
  assert.deepEqual(
    listing.map((group) => group.label),
    ['#', 'E', 'T', 'Z'],
  );
  assert.equal(listing.flatMap((group) => group.links).length, 43);
  const tools = listing.find((group) => group.label === 'T')!.links.map((link) => link.title);
  assert.deepEqual(tools.slice(0, 3), ['Tool 0', 'Tool 1', 'Tool 2'], 'numbers in titles sort as numbers');
  assert.equal(tools.at(-1), 'Tool 39');
  // The section page's sidebar opens the section at its start.
  assert.equal(screen.sidebar.find((node) => node.title === 'Big')!.children.length, SIDEBAR_WINDOW);
});

test('a long top level is shown under the docs index, windowed, and the docs index lists it', async () => {
  const tree: Record<string, string> = { 'pages/docs/index.md': makePage({ title: 'Docs' }) };
  for (let n = 0; n < 100; n++) tree[`pages/docs/t${n}.md`] = makePage({ title: `Top ${n}`, order: n });
  const screenOf = await screensOf({ en: tree });
  const sidebar = docs(screenOf('docs/t50')).sidebar;
  assert.equal(sidebar.length, 1);
  assert.equal(sidebar[0]!.title, 'Docs');
  assert.equal(sidebar[0]!.total, 100);
  assert.ok(sidebar[0]!.children.some((node) => node.title === 'Top 50'));
  assert.equal(docs(screenOf('docs')).listing!.flatMap((group) => group.links).length, 100);
  // Reading order is unchanged: the index, then the pages in order.
  assert.equal(docs(screenOf('docs')).next?.title, 'Top 0');
  assert.equal(docs(screenOf('docs/t50')).next?.title, 'Top 51');
});

test('a docs folder without index.md is a section titled by its name, whose page lists its pages', async () => {
  const { 'pages/docs/guides/index.md': _, ...withoutIndex } = DOCS;
  const warnings: string[] = [];
  const { site, messages } = await makeSite(
    { en: withoutIndex, de: { 'pages/docs/index.md': makePage({ title: 'Doku' }) } },
    { warn: (message: string) => warnings.push(message) },
  );
  for (const locale of ['en', 'de']) {
    const pages = site.pages.get(locale)!;
    const screenFor = screenMaker(makeServerIntls(messages, site.defaultLocale).get(locale)!, pages);
    const folder = docs(screenFor(pages.get('docs/guides')!)!);
    assert.equal(folder.title, 'guides');
    assert.deepEqual(
      folder.listing!.flatMap((group) => group.links.map((link) => link.title)),
      ['Deep', 'Install', 'Upgrade'],
    );
    const install = docs(screenFor(pages.get('docs/guides/install')!)!);
    // A folder has no order: it comes after the ordered pages.
    assert.deepEqual(outline(install.sidebar), [
      locale === 'en' ? 'Docs' : 'Doku',
      'Start',
      'Reference',
      'guides',
      '  Install',
      '  Upgrade',
      '  Deep',
    ]);
  }
  assert.equal(warnings.filter((warning) => warning.includes('docs/guides/: a docs folder without index.md')).length, 1);
});
