/**
 * `npm run share-images`: each locale's default share image (Open Graph), written to
 * `locales/<locale>/share.png`, 1200 x 630: the site name and the `site.tagline`
 * message on the card of scripts/share-card.ts, rendered by headless Chromium.
 *
 * The PNGs are committed, so the build, CI and readers never need this script or its
 * fonts; run it after changing the tagline or the card. It needs Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) and the Noto fonts for every script the
 * site writes in (Debian: `apt-get install -y fonts-noto-core fonts-noto-cjk`).
 *
 *   npm run share-images            every locale
 *   npm run share-images -- de ja   only these
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import IntlMessageFormat from 'intl-messageformat';
import { chromium } from 'playwright-core';
import { ROOT_DIR, loadConfig } from '../src/server/config.ts';
import { directionOf } from '../src/i18n/locales.ts';
import { loadMessages } from '../src/server/content/messages.ts';
import { SHARE_FONTS, SHARE_HEIGHT, SHARE_WIDTH, shareCardHtml } from './share-card.ts';
import { toIndexedPng } from './indexed-png.ts';

async function main(only: string[]): Promise<void> {
  const { localesDir, locales, defaultLocale } = loadConfig({ ...process.env, PORT: '0' });
  const unknown = only.filter((locale) => !locales.includes(locale));
  if (unknown.length) throw new Error(`no such locale: ${unknown.join(', ')} (the site has ${locales.join(', ')})`);
  const catalog = loadMessages(localesDir, locales, defaultLocale);
  const languages = locales.map((locale) => ({ locale, name: autonym(locale) }));

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: SHARE_WIDTH, height: SHARE_HEIGHT }, deviceScaleFactor: 1 });
    for (const locale of only.length ? only : locales) {
      const text = (key: string) => {
        const message = catalog.get(locale)![key];
        if (!message) throw new Error(`no "${key}" message in ${locale}/messages.json or the default locale's`);
        return String(new IntlMessageFormat(message, locale).format());
      };
      await page.setContent(
        shareCardHtml({ locale, dir: directionOf(locale), name: text('site.name'), tagline: text('site.tagline'), languages }),
      );
      await checkFonts(page);
      const png = toIndexedPng(await page.screenshot({ type: 'png' }));
      const file = join(localesDir, locale, 'share.png');
      writeFileSync(file, png);
      console.log(`${relative(ROOT_DIR, file)}: ${(png.length / 1024).toFixed(1)} KB`);
    }
  } finally {
    await browser.close();
  }
}

/** Loads every face of the card and fails unless all were found: a fallback font would draw tofu or unjoined Arabic. */
async function checkFonts(page: import('playwright-core').Page): Promise<void> {
  const failed = await page.evaluate(async () => {
    const faces = [...document.fonts];
    await Promise.allSettled(faces.map((face) => face.load()));
    return faces.filter((face) => face.status !== 'loaded').map((face) => `${face.family} ${face.weight}`);
  });
  if (failed.length) {
    const wanted = SHARE_FONTS.map((font) => font.local[0]);
    throw new Error(
      `fonts not installed: ${failed.join(', ')} (the card needs ${wanted.join(', ')}; Debian: apt-get install -y fonts-noto-core fonts-noto-cjk)`,
    );
  }
}

/** The language's name in itself, capitalised as the language switcher shows it ("Français"). */
function autonym(locale: string): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`share-images failed: ${error.message}`);
  process.exit(1);
});
