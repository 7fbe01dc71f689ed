// Which file a page's `![alt](src)` shows, and that file as the build copies it.
// `/images/x.png` is under the page's locale folder (`locales/de/images/x.png`), or the
// default locale's when the translation has none; any other path is relative to the
// page's file and stays inside its locale's folder (for a frozen version's page, the
// version's folder of that locale first, `versions/0.1/de/`, where `npm run version` copied
// the files beside the docs). scripts/build-images.ts copies every image of a locale folder and of each
// version's locale folders, under the name this gives.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { isImageFile, type PageImage, pageImage } from './images.ts';

export type FoundImage = { image: PageImage } | { problem: string };

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/** A finder for one compile of the site; each file is read once however many pages show it. */
export function imageFinder(localesDir: string, defaultLocale: string) {
  const seen = new Map<string, FoundImage>();
  const contentDir = dirname(resolve(localesDir));
  /** `source`: the image's path under the locales folder (`de/images/x.png`), or under the content folder for a version's (`versions/0.1/de/...`). */
  const load = (source: string, file: string): FoundImage => {
    let found = seen.get(source);
    if (!found) {
      const label = relative(process.cwd(), file) || file;
      try {
        found = { image: pageImage(source, readFileSync(file), label) };
      } catch (error) {
        found = { problem: (error as Error).message };
      }
      seen.set(source, found);
    }
    return found;
  };
  /** `page.version`: the folder of the frozen version whose docs hold the page (`versions/0.1`), if any. */
  return (page: { locale: string; path: string; version?: string | undefined }, src: string): FoundImage => {
    if (EXTERNAL.test(src)) {
      return {
        problem: `an image from another site is blocked by the Content-Security-Policy (img-src 'self'): save it under locales/${page.locale}/images/ and write ![alt](/images/its-name)`,
      };
    }
    const path = src.replace(/[?#].*$/, '');
    if (!isImageFile(path)) return { problem: 'not a PNG, JPEG, WebP, GIF, AVIF or SVG file (by its extension)' };
    const inside = posix.normalize(path.startsWith('/') ? path : posix.join(posix.dirname(page.path), path));
    if (inside === '..' || inside.startsWith('../')) return { problem: `it leads out of the locale folder (locales/${page.locale}/)` };
    // A version holds only its docs (`pages/docs/`): an image beside them is the version's
    // copy; one it does not hold (`../../images/x.png`, the locale's images) is the locale's.
    if (page.version && !path.startsWith('/')) {
      const source = posix.join(relative(contentDir, page.version).split(sep).join('/'), page.locale, inside);
      const file = join(contentDir, source);
      if (existsSync(file)) return load(source, file);
    }
    const candidates = path.startsWith('/')
      ? [...new Set([page.locale, defaultLocale])].map((locale) => posix.join(locale, inside))
      : [posix.join(page.locale, inside)];
    const source = candidates.find((candidate) => existsSync(join(localesDir, candidate)));
    if (!source) {
      return { problem: `no such file: ${candidates.map((candidate) => `locales/${candidate}`).join(' or ')}` };
    }
    return load(source, join(localesDir, source));
  };
}
