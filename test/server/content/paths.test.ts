import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localizeSlugs, sitePaths, type SlugSource } from '../../../src/server/content/paths.ts';

// Where pages live per locale: `slug:` front matter, folders, fallbacks, and every conflict the build refuses.

const LOCALES = ['en', 'de', 'ja'];

/** A page source; `slug` is its front matter value, on line 4 of its file. */
function source(locale: string, key: string, slug?: string): SlugSource {
  return { locale, key, file: `locales/${locale}/pages/${key || 'index'}.md`, slug, slugLine: 4 };
}

function resolve(sources: SlugSource[]) {
  const { slugs, problems } = localizeSlugs(sources, LOCALES, 'en');
  const pages = new Map(
    [...slugs].map(([locale, served]) => [locale, new Map([...served].map(([key, localPath]) => [key, { localPath }]))]),
  );
  return { slugs, problems, paths: sitePaths(pages, 'en') };
}

const SITE = [
  source('en', ''),
  source('en', 'about'),
  source('en', 'docs/guides'),
  source('en', 'docs/guides/install'),
  source('en', 'docs/guides/deploy'),
  source('de', 'about', 'ueber-uns'),
  source('de', 'docs/guides', 'anleitungen'),
  source('de', 'docs/guides/install', 'installation'),
  source('ja', 'about', '概要'),
];

test('a one-segment slug replaces the last segment, and children follow a localized folder', () => {
  const { slugs, problems } = resolve(SITE);
  assert.deepEqual(problems, []);
  const de = slugs.get('de')!;
  assert.equal(de.get('about'), 'ueber-uns');
  assert.equal(de.get('docs/guides'), 'docs/anleitungen');
  assert.equal(de.get('docs/guides/install'), 'docs/anleitungen/installation');
  // Untranslated in German: served from English, under the German folder.
  assert.equal(de.get('docs/guides/deploy'), 'docs/anleitungen/deploy');
  assert.equal(slugs.get('en')!.get('docs/guides/install'), 'docs/guides/install');
  assert.equal(slugs.get('ja')!.get('about'), '概要');
});

test('a slug starting with / is the whole path under the locale', () => {
  const { slugs, problems } = resolve([
    source('en', ''),
    source('en', 'docs/guides/install'),
    source('de', 'docs/guides/install', '/handbuch/installieren'),
  ]);
  assert.deepEqual(problems, []);
  assert.equal(slugs.get('de')!.get('docs/guides/install'), 'handbuch/installieren');
});

test('paths resolve both ways: key to percent-encoded path, path to key', () => {
  const { paths } = resolve(SITE);
  assert.equal(paths.pathOf('ja', 'about'), '/ja/%E6%A6%82%E8%A6%81');
  assert.equal(paths.pathOf('de', 'docs/guides/install'), '/de/docs/anleitungen/installation');
  assert.equal(paths.pathOf('en', ''), '/en');
  assert.deepEqual(paths.find('ja', '概要'), { key: 'about', canonical: true });
  assert.deepEqual(paths.find('de', 'docs/anleitungen/installation'), { key: 'docs/guides/install', canonical: true });
  // The default locale's path in a locale that localized it: the page, to be redirected to.
  assert.deepEqual(paths.find('de', 'about'), { key: 'about', canonical: false });
  assert.deepEqual(paths.find('de', 'docs/guides/install'), { key: 'docs/guides/install', canonical: false });
  assert.equal(paths.find('de', 'nowhere'), undefined);
  assert.equal(paths.find('xx', 'about'), undefined);
});

test('two pages of one locale on the same path is a build error naming both files and lines', () => {
  const { problems } = resolve([source('en', ''), source('en', 'a'), source('en', 'b'), source('de', 'a', 'x'), source('de', 'b', 'x')]);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!,
    /^locales\/de\/pages\/b\.md:4: the path \/de\/x is claimed by two pages: this one and locales\/de\/pages\/a\.md:4$/,
  );
});

test("a localized path equal to another page's default path is a build error", () => {
  const { problems } = resolve([source('en', ''), source('en', 'about'), source('en', 'team'), source('de', 'about', 'team')]);
  assert.ok(
    problems.some((problem) =>
      /^locales\/de\/pages\/about\.md:4: the path \/de\/team is the default path of locales\/en\/pages\/team\.md:4/.test(problem),
    ),
    problems.join('\n'),
  );
});

test('invalid slugs are build errors with file and line, and the page keeps its default path', () => {
  for (const [slug, reason] of [
    ['', /slug "" is empty/],
    ['  ', /is empty/],
    ['/', /is empty/],
    ['a/b', /holds "\/" where only one segment is allowed/],
    ['.', /holds a "\." or "\.\." segment/],
    ['..', /holds a "\." or "\.\." segment/],
    ['/docs/../etc', /holds a "\." or "\.\." segment/],
    ['/docs//x', /has an empty segment/],
    ['a\u0007b', /slug "a\\u0007b" holds a control character/],
    ['a\\b', /holds a control character or a backslash/],
  ] as const) {
    const { slugs, problems } = resolve([source('en', ''), source('en', 'about'), source('de', 'about', slug)]);
    assert.equal(problems.length, 1, `${JSON.stringify(slug)}: ${problems.join('\n')}`);
    assert.match(problems[0]!, /^locales\/de\/pages\/about\.md:4: /);
    assert.match(problems[0]!, reason);
    assert.equal(slugs.get('de')!.get('about'), 'about');
  }
});

test('a home page cannot declare a slug', () => {
  const { problems } = resolve([source('en', '', 'start')]);
  assert.match(problems[0]!, /index\.md:4: slug "start" is not allowed on a home page/);
});

test("a slug may not take the search page's path", () => {
  const { problems } = resolve([source('en', ''), source('en', 'find', 'search')]);
  assert.match(problems[0]!, /find\.md:4: the path \/en\/search is the search page's/);
});

test("a slug may not hold the segment that names a section's numbered pages (~)", () => {
  for (const slug of ['~', '/docs/~/2']) {
    const { problems } = resolve([source('en', ''), source('en', 'docs/big'), source('de', 'docs/big', slug)]);
    assert.equal(problems.length, 1, `${slug}: ${problems.join('\n')}`);
    assert.match(
      problems[0]!,
      /^locales\/de\/pages\/docs\/big\.md:4: slug ".*" holds the segment "~", which names a section's numbered pages/,
    );
  }
});

test('another Unicode spelling of a localized path (decomposed, NFD) names the page, to be redirected to its NFC path', () => {
  const nfc = 'über-uns';
  const nfd = nfc.normalize('NFD');
  assert.notEqual(nfd, nfc, 'the fixture has a letter that decomposes');
  const { paths, problems } = resolve([
    source('en', ''),
    source('en', 'about'),
    source('en', 'docs/guides'),
    source('en', 'docs/guides/install'),
    source('de', 'about', nfc),
    source('de', 'docs/guides', 'anleitungen-für-alle'),
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(paths.find('de', nfc), { key: 'about', canonical: true });
  assert.deepEqual(paths.find('de', nfd), { key: 'about', canonical: false });
  assert.deepEqual(paths.find('de', 'docs/anleitungen-für-alle/install'.normalize('NFD')), {
    key: 'docs/guides/install',
    canonical: false,
  });
  assert.equal(paths.find('de', 'nowhere-für'.normalize('NFD')), undefined);
});

test('a slug written decomposed (NFD) is served at its NFC path, and two spellings of one slug are one path', () => {
  const { slugs, paths, problems } = resolve([source('en', ''), source('en', 'about'), source('de', 'about', 'über-uns'.normalize('NFD'))]);
  assert.deepEqual(problems, []);
  assert.equal(slugs.get('de')!.get('about'), 'über-uns');
  assert.equal(paths.pathOf('de', 'about'), '/de/%C3%BCber-uns');
  const clash = resolve([
    source('en', ''),
    source('en', 'a'),
    source('en', 'b'),
    source('de', 'a', 'für'),
    source('de', 'b', 'für'.normalize('NFD')),
  ]);
  assert.match(clash.problems[0]!, /the path \/de\/f%C3%BCr is claimed by two pages/);
});
