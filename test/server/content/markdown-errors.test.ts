import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadSite } from '../../../src/server/content/site.ts';
import { ContentError } from '../../../src/server/content/errors.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { makeLocales, makePage } from '../../helpers/content.ts';

// Each mistake an author or translator can make in the new constructs stops the build
// with the file and the exact line. makePage's front matter takes lines 1-4: a body's
// first line is line 5 of its file.
const PNG = readFileSync(new URL('../../scripts/fixtures/tiny.png', import.meta.url));
const WIDE = await sharp({ create: { width: 1500, height: 600, channels: 3, background: '#3366aa' } })
  .png()
  .toBuffer();
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40"/></svg>');

function compile(tree: Parameters<typeof makeLocales>[0]) {
  const dir = makeLocales(tree);
  const locales = Object.keys(tree);
  return loadSite(dir, locales, locales[0]!, loadMessages(dir, locales, locales[0]!));
}

function problems(tree: Parameters<typeof makeLocales>[0]): string[] {
  try {
    compile(tree);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    // Paths under the temporary folder, in line order.
    const lineOf = (problem: string) => Number(problem.match(/:(\d+):/)?.[1]);
    return error.problems.map((problem) => problem.replace(/\S*polysite-locales-[^/]+\//g, '')).sort((a, b) => lineOf(a) - lineOf(b));
  }
  return [];
}

test('images beside the page, in a parent folder and under /images/ are found, hashed and sized', () => {
  const site = compile({
    en: {
      'pages/index.md': makePage(),
      'pages/docs/guide.md': makePage({}, '![Wide](./wide.png)\n\n![Tiny](../../img/tiny.png)\n\n![Logo](/images/logo.svg)\n'),
      'pages/docs/wide.png': WIDE,
      'img/tiny.png': PNG,
      'images/logo.svg': SVG,
    },
  });
  const html = site.pages.get('en')!.get('docs/guide')!.html();
  assert.match(html, /<img src="\/assets\/en-pages-docs-wide-[0-9A-F]{8}\.png" alt="Wide" width="1500" height="600"/);
  assert.match(
    html,
    /srcset="\/assets\/en-pages-docs-wide-[0-9A-F]{8}-640\.webp 640w, \/assets\/en-pages-docs-wide-[0-9A-F]{8}-1280\.webp 1280w, \/assets\/en-pages-docs-wide-[0-9A-F]{8}-1500\.webp 1500w"/,
  );
  assert.match(html, /<img src="\/assets\/en-img-tiny-[0-9A-F]{8}\.png" alt="Tiny" width="17" height="9" loading="lazy" decoding="async">/);
  assert.match(html, /<img src="\/assets\/en-images-logo-[0-9A-F]{8}\.svg" alt="Logo" width="120" height="40"/);
});

test("a translation's /images/ falls back to the default locale's file when it has none of its own", () => {
  const site = compile({
    en: {
      'pages/index.md': makePage({}, '![Logo](/images/logo.svg) ![Photo](/images/photo.png)\n'),
      'images/logo.svg': SVG,
      'images/photo.png': PNG,
    },
    de: { 'pages/index.md': makePage({}, '![Logo](/images/logo.svg) ![Foto](/images/photo.png)\n'), 'images/photo.png': WIDE },
  });
  const html = site.pages.get('de')!.get('')!.html();
  assert.match(html, /src="\/assets\/en-images-logo-[0-9A-F]{8}\.svg"/);
  assert.match(html, /src="\/assets\/de-images-photo-[0-9A-F]{8}\.png"/);
});

test('a missing image, an image without alt text and an image from another site fail with file and line', () => {
  assert.deepEqual(
    problems({
      en: {
        'pages/index.md': makePage({}, 'Text\nand ![Gone](./gone.png)\n\n![](/images/logo.svg)\n\n![Badge](https://example.com/b.svg)\n'),
        'images/logo.svg': SVG,
      },
    }),
    [
      'en/pages/index.md:6: image ./gone.png: no such file: locales/en/pages/gone.png',
      'en/pages/index.md:8: the image /images/logo.svg has no alt text: describe it between the brackets, ![What it shows](/images/logo.svg)',
      "en/pages/index.md:10: image https://example.com/b.svg: an image from another site is blocked by the Content-Security-Policy (img-src 'self'): save it under locales/en/images/ and write ![alt](/images/its-name)",
    ],
  );
});

test('an image file that is not what its extension says fails with the page line', () => {
  const [problem] = problems({ en: { 'pages/index.md': makePage({}, '\n![Fake](./fake.png)\n'), 'pages/fake.png': Buffer.from('text') } });
  assert.match(problem!, /^en\/pages\/index\.md:6: image \.\/fake\.png: .*fake\.png: not a readable image/);
});

test('an unknown callout kind and an unclosed container fail with file and line', () => {
  assert.deepEqual(problems({ en: { 'pages/index.md': makePage({}, 'Intro\n\n:::nope\nx\n:::\n\n:::note\nnever closed\n') } }), [
    'en/pages/index.md:7: unknown callout kind ":::nope": use one of :::note, :::tip, :::info, :::important, :::warning, :::danger, :::caution',
    'en/pages/index.md:11: the callout ":::note" is never closed: end it with a line of :::',
  ]);
});

test('a heading id used twice fails with both lines', () => {
  assert.deepEqual(problems({ en: { 'pages/index.md': makePage({}, '## A {#x}\n\n## B {#x}\n') } }), [
    'en/pages/index.md:7: heading id {#x} is already given to the heading on line 5',
  ]);
});

test('relative links resolve against the page file and go to the target path in the page locale', () => {
  const site = compile({
    en: {
      'pages/index.md': makePage(),
      'pages/docs/guide.md': makePage({}, '[a](./other.md?x=1#top) [b](../about.md) [c](other) [d](./sub/) [e](../index.md)\n'),
      'pages/docs/other.md': makePage({}, '## Top\n'),
      'pages/docs/sub/index.md': makePage(),
      'pages/about.md': makePage(),
    },
    de: {
      'pages/docs/guide.md': makePage({}, '[a](./other.md#top) [b](../about.md)\n'),
      'pages/docs/other.md': makePage({ slug: 'andere' }, '## Oben {#top}\n'),
      'pages/about.md': makePage({ slug: 'ueber-uns' }),
    },
  });
  assert.match(
    site.pages.get('en')!.get('docs/guide')!.html(),
    /href="\/en\/docs\/other\?x=1#top".*href="\/en\/about".*href="\/en\/docs\/other".*href="\/en\/docs\/sub".*href="\/en"/,
  );
  assert.match(site.pages.get('de')!.get('docs/guide')!.html(), /href="\/de\/docs\/andere#top".*href="\/de\/ueber-uns"/);
});

test('a relative link to a missing file, outside the pages or to a non-page fails with file and line', () => {
  assert.deepEqual(problems({ en: { 'pages/index.md': makePage({}, '[a](./gone.md)\n[b](../../x.md)\n[c](./photo.png)\n') } }), [
    'en/pages/index.md:5: link to ./gone.md, a file that exists in no locale: pages/gone.md (or pages/gone/index.md)',
    'en/pages/index.md:6: link to ../../x.md, which leads out of the pages folder; link to a page under pages/',
    'en/pages/index.md:7: link to ./photo.png, which is not a page (.md file); link to a Markdown page',
  ]);
});

test('a fragment naming no heading of its page or its target fails with file and line', () => {
  assert.deepEqual(
    problems({
      en: {
        'pages/index.md': makePage({}, '## Here\n\n[a](#here) [b](#nowhere)\n\n[c](/docs#setup) [d](./docs/index.md#missing)\n'),
        'pages/docs/index.md': makePage({}, '## Setup\n'),
      },
    }),
    [
      `en/pages/index.md:7: link to #nowhere: en/pages/index.md has no heading with the id "nowhere"; name one of its headings' ids, or give a heading that id: ## Heading {#nowhere}`,
      `en/pages/index.md:9: link to ./docs/index.md#missing: en/pages/docs/index.md has no heading with the id "missing"; name one of its headings' ids, or give a heading that id: ## Heading {#missing}`,
    ],
  );
});

test("a translation that renames a heading without keeping its id breaks the source's links into it, in that locale", () => {
  const tree = (heading: string) => ({
    en: { 'pages/index.md': makePage({}, 'See [setup](/docs#setup).\n'), 'pages/docs/index.md': makePage({}, '## Setup\n') },
    de: { 'pages/docs/index.md': makePage({}, `${heading}\n`) },
  });
  assert.deepEqual(problems(tree('## Einrichtung')), [
    'en/pages/index.md:5: link to /docs#setup: de/pages/docs/index.md (what de serves) has no heading with the id "setup"; its headings take their ids from their own words: give the heading the same id there, ## Heading {#setup}',
  ]);
  assert.deepEqual(problems(tree('## Einrichtung {#setup}')), []);
});
