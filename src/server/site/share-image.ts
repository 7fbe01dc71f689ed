import { readFileSync } from 'node:fs';
import { frontMatterLine } from '../content/front-matter.ts';
import { ContentError } from '../content/errors.ts';
import type { Site, SourcePage } from '../content/site.ts';
import type { Manifest } from './manifest.ts';

// Which share image (Open Graph) a page shows: its own, named in front matter
// `image:` (a file under its content locale's folder), else its locale's
// `share.png`. The build puts both in the manifest, keyed by file under the
// locales folder.

export type ShareImages = Manifest['images'];
export type ShareImage = ShareImages[string];

/** The file a locale's pages share when they name none. */
export const LOCALE_IMAGE = 'share.png';

/** `de/images/launch.png` for `image: images/launch.png` in a German page. */
export function pageImageKey(page: Pick<SourcePage, 'contentLocale' | 'image'>): string | undefined {
  return page.image === undefined ? undefined : `${page.contentLocale}/${page.image.replace(/^\.\//, '')}`;
}

/**
 * The page's own image, else its locale's, else (a locale without its own `share.png`:
 * the build warns) the default locale's; null when the site has none (no image tags then).
 */
export function shareImageOf(
  page: Pick<SourcePage, 'contentLocale' | 'image'>,
  locale: string,
  images: ShareImages,
  defaultLocale = locale,
): ShareImage | null {
  const own = pageImageKey(page);
  return (own !== undefined && images[own]) || images[`${locale}/${LOCALE_IMAGE}`] || images[`${defaultLocale}/${LOCALE_IMAGE}`] || null;
}

/**
 * Start-up check: a page naming an image the build did not make (a typo, a file
 * never added) would silently share its locale's instead. Reported like any
 * content problem, with the file and the line of its `image:` when the source
 * is at hand.
 */
export function checkShareImages(
  site: Site,
  images: ShareImages,
  /** The pages that may name an image, by serving locale: the built snapshot lists them (snapshot.ts); by default every page. */
  pages: Iterable<readonly [string, SourcePage]> = everyPage(site),
): void {
  const problems: string[] = [];
  for (const [locale, page] of pages) {
    // A fallback is the default locale's own page: reported once, there.
    if (page.contentLocale !== locale) continue;
    const key = pageImageKey(page);
    if (key === undefined || Object.hasOwn(images, key)) continue;
    problems.push(
      `${page.file}:${imageLine(page.file)}: front matter "image" names ${key} under the locales folder, which the build did not make a share image of (is the file there? then run \`npm run build\`)`,
    );
  }
  if (problems.length) throw new ContentError(problems);
}

/** The line of `image:` in a page's front matter; 2 (the front matter's first line) when the file cannot be read. */
function imageLine(file: string): number {
  try {
    return frontMatterLine(readFileSync(file, 'utf8'), 'image');
  } catch {
    return 2;
  }
}

function* everyPage(site: Site): Iterable<readonly [string, SourcePage]> {
  for (const [locale, pages] of site.pages) for (const page of pages.values()) yield [locale, page];
}
