import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContentError } from '../../../src/server/content/errors.ts';
import { checkShareImages, shareImageOf } from '../../../src/server/site/share-image.ts';
import { makeLocales, makePage, makeSite } from '../../helpers/content.ts';
import { startServerExpectingFailure } from '../../helpers/server.ts';

const IMAGES = {
  'en/share.png': { path: '/assets/share-en-1.png', width: 1200, height: 630 },
  'de/share.png': { path: '/assets/share-de-2.png', width: 1200, height: 630 },
  'de/images/launch.png': { path: '/assets/launch-3.png', width: 800, height: 420 },
};

test('a page’s own image comes first (under its content locale), else its locale’s, else none', () => {
  assert.equal(shareImageOf({ contentLocale: 'de', image: 'images/launch.png' }, 'de', IMAGES), IMAGES['de/images/launch.png']);
  assert.equal(shareImageOf({ contentLocale: 'de', image: './images/launch.png' }, 'de', IMAGES), IMAGES['de/images/launch.png']);
  assert.equal(shareImageOf({ contentLocale: 'de' }, 'de', IMAGES), IMAGES['de/share.png']);
  assert.equal(
    shareImageOf({ contentLocale: 'en' }, 'de', IMAGES),
    IMAGES['de/share.png'],
    'a fallback page shares its reader’s locale image',
  );
  assert.equal(shareImageOf({ contentLocale: 'fr' }, 'fr', IMAGES), null);
  assert.equal(
    shareImageOf({ contentLocale: 'fr' }, 'fr', IMAGES, 'en'),
    IMAGES['en/share.png'],
    'a locale without its own shares the default’s',
  );
});

test('a page naming an image the build did not make is a content error with its file and the line of image:', async () => {
  const { site } = await makeSite({
    en: { 'pages/index.md': makePage({ title: 'Home', image: 'images/nope.png' }) },
    de: { 'pages/index.md': makePage({ title: 'Start', image: 'images/launch.png' }) },
  });
  assert.throws(
    () => checkShareImages(site, IMAGES),
    (error: unknown) => {
      assert.ok(error instanceof ContentError);
      assert.equal(error.problems.length, 1, 'the German image is there; the English fallback is reported once');
      assert.match(error.problems[0]!, /en\/pages\/index\.md:4: front matter "image" names en\/images\/nope\.png/);
      return true;
    },
  );
  assert.doesNotThrow(() => checkShareImages(site, { ...IMAGES, 'en/images/nope.png': IMAGES['en/share.png'] }));
});

test('the server refuses to start on such a page, and says which file and line', async () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({ title: 'Home', image: 'missing.png' }) } });
  const { code, stderr } = await startServerExpectingFailure({ LOCALES_DIR: dir, DEFAULT_LOCALE: 'en' });
  assert.equal(code, 1);
  assert.match(stderr, /index\.md:4: front matter "image" names en\/missing\.png/);
});
