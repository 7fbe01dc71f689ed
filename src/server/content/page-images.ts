// Which file a page's `![alt](src)` shows, and that file as the build copies it.
// `/images/x.png` is under the page's locale folder (`locales/de/images/x.png`), or the
// default locale's when the translation has none; any other path is relative to the
// page's file and stays inside its locale's folder. scripts/build-images.ts copies
// every image of a locale folder, under the name this gives.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { isImageFile, type PageImage, pageImage } from './images.ts';

export type FoundImage = { image: PageImage } | { problem: string };

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/** A finder for one compile of the site; each file is read once however many pages show it. */
export function imageFinder(localesDir: string, defaultLocale: string) {
  const seen = new Map<string, FoundImage>();
  const load = (source: string): FoundImage => {
    let found = seen.get(source);
    if (!found) {
      const file = join(localesDir, source);
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
  return (page: { locale: string; path: string }, src: string): FoundImage => {
    if (EXTERNAL.test(src)) {
      return {
        problem: `an image from another site is blocked by the Content-Security-Policy (img-src 'self'): save it under locales/${page.locale}/images/ and write ![alt](/images/its-name)`,
      };
    }
    const path = src.replace(/[?#].*$/, '');
    if (!isImageFile(path)) return { problem: 'not a PNG, JPEG, WebP, GIF, AVIF or SVG file (by its extension)' };
    const inside = posix.normalize(path.startsWith('/') ? path : posix.join(posix.dirname(page.path), path));
    if (inside === '..' || inside.startsWith('../')) return { problem: `it leads out of the locale folder (locales/${page.locale}/)` };
    const candidates = path.startsWith('/')
      ? [...new Set([page.locale, defaultLocale])].map((locale) => posix.join(locale, inside))
      : [posix.join(page.locale, inside)];
    const source = candidates.find((candidate) => existsSync(join(localesDir, candidate)));
    if (!source) {
      return { problem: `no such file: ${candidates.map((candidate) => `locales/${candidate}`).join(' or ')}` };
    }
    return load(source);
  };
}
