import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readImageSize } from '../../scripts/build-images.ts';
import { shareCardHtml } from '../../scripts/share-card.ts';
import { ROOT } from '../helpers/server.ts';

/** The committed output of `npm run share-images` (CI has no fonts to render it again). */
const LOCALES = ['en', 'de', 'fr', 'ja', 'ar'];

test('every locale of the default site has a committed 1200x630 share image of its own', () => {
  const hashes = new Map<string, string>();
  for (const locale of LOCALES) {
    const bytes = readFileSync(join(ROOT, 'locales', locale, 'share.png'));
    assert.deepEqual(readImageSize(bytes, `locales/${locale}/share.png`), { width: 1200, height: 630 }, locale);
    // Flat colours in a palette: a share image this large means the optimisation was skipped.
    assert.ok(bytes.length < 40 * 1024, `${locale}/share.png is ${bytes.length} bytes`);
    hashes.set(createHash('sha256').update(bytes).digest('hex'), locale);
  }
  assert.equal(hashes.size, LOCALES.length, 'each locale has a different image');
});

test('the card sets the locale and direction and escapes the text it shows', () => {
  const html = shareCardHtml({
    locale: 'ar',
    dir: 'rtl',
    name: 'poly<site>',
    tagline: 'مواقع & "سريعة"',
    languages: [
      { locale: 'en', name: 'English' },
      { locale: 'ar', name: 'العربية' },
    ],
  });
  assert.match(html, /<html lang="ar" dir="rtl">/);
  assert.match(html, /poly&lt;site&gt;/);
  assert.match(html, /مواقع &amp; &quot;سريعة&quot;/);
  assert.match(html, /<li lang="ar" class="current">العربية<\/li>/);
  assert.match(html, /<li lang="en">English<\/li>/);
});
