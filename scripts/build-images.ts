// The build's images: each locale's default share image (`<locale>/share.png`), every
// file under `<locale>/images/` and every other image in the locale's folder (pictures
// beside the pages that show them), copied into the hashed assets. Share images (PNG,
// JPEG, WebP at `share.png` or under `images/`) are listed with their pixel size for the
// manifest's `images` (Open Graph needs width and height). Raster images wider than a
// page's column also get WebP versions at a few widths (src/server/content/images.ts
// names them; pages list them in a srcset), made by sharp: resizing and WebP encoding
// need a real image library, and sharp (libvips, prebuilt for Node 20 on Linux, macOS
// and Windows) is the one the field uses. A version is made once per content hash and
// kept in a cache folder between builds.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { CACHE_ROOT } from './cache-root.ts';
import { imageAssetName, isImageFile, readImageSize, variantName, variantWidths } from '../src/server/content/images.ts';
import { versionsDirOf } from '../src/server/content/versions.ts';
import type { Manifest } from '../src/server/site/manifest.ts';

export { readImageSize } from '../src/server/content/images.ts';

export type ImageEntry = Manifest['images'][string];

/** Where WebP versions are kept between builds, by the source's content hash and width. */
export const VARIANT_CACHE_DIR = join(CACHE_ROOT, 'polysite-images');

/** The types a share preview may use. */
const SHARE_TYPES = new Set(['.png', '.jpg', '.jpeg', '.webp']);

/**
 * Copies every locale's images into `assetsDir` under content-hashed names and returns
 * the manifest's `images` (share images), keyed by the path under the locales folder
 * (`de/share.png`, `en/images/launch.png`). A file it cannot read fails the build,
 * naming the file. A locale without its own `share.png` shares the default locale's:
 * `warn` hears it, once per locale.
 */
export async function buildImages(
  localesDir: string,
  locales: readonly string[],
  assetsDir: string,
  {
    cacheDir = VARIANT_CACHE_DIR,
    defaultLocale = locales[0],
    warn = () => {},
  }: { cacheDir?: string; defaultLocale?: string | undefined; warn?: (message: string) => void } = {},
): Promise<Record<string, ImageEntry>> {
  const images: Record<string, ImageEntry> = {};
  const versions: Promise<void>[] = [];
  const defaultImage = defaultLocale !== undefined && existsSync(join(localesDir, defaultLocale, 'share.png'));
  for (const locale of locales) {
    // The server shares the default locale's image for a locale without its own (share-image.ts).
    if (defaultImage && locale !== defaultLocale && !existsSync(join(localesDir, locale, 'share.png'))) {
      warn(`locales/${locale}/share.png is missing: its pages share ${defaultLocale}'s image (npm run share-images makes one per locale)`);
    }
    // A frozen version's images beside its docs are named under the content folder (versions/0.1/de/...), as page-images.ts names them.
    const contentDir = dirname(resolve(localesDir));
    const versionFolders = existsSync(versionsDirOf(localesDir))
      ? readdirSync(versionsDirOf(localesDir), { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
          .map((entry) => relative(contentDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
      : [];
    const found = [
      ...listImages(localesDir, locale).map((source) => ({ source, file: join(localesDir, source), label: `locales/${source}` })),
      ...versionFolders.flatMap((folder) =>
        listImages(contentDir, `${folder}/${locale}`).map((source) => ({ source, file: join(contentDir, source), label: source })),
      ),
    ];
    for (const { source, file, label } of found) {
      const bytes = readFileSync(file);
      const size = readImageSize(bytes, label);
      const name = imageAssetName(source, bytes);
      writeFileSync(join(assetsDir, name), bytes);
      const shareable = source === `${locale}/share.png` || source.startsWith(`${locale}/images/`);
      if (shareable && SHARE_TYPES.has(extname(source).toLowerCase())) images[source] = { path: `/assets/${name}`, ...size };
      // A locale's share.png is for previews on other sites only: no page shows it.
      const shown = source !== `${locale}/share.png`;
      for (const width of shown ? variantWidths(name, size.width) : []) {
        versions.push(writeVersion(bytes, width, join(assetsDir, variantName(name, width)), cacheDir, label));
      }
    }
  }
  await Promise.all(versions);
  return images;
}

/** A WebP version `width` pixels wide, from the cache or made now (and cached). */
async function writeVersion(bytes: Buffer, width: number, target: string, cacheDir: string, label: string): Promise<void> {
  const cached = join(cacheDir, `${createHash('sha256').update(bytes).digest('hex')}-${width}.webp`);
  if (!existsSync(cached)) {
    const { default: sharp } = await import('sharp');
    let webp: Buffer;
    try {
      webp = await sharp(bytes).resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    } catch (error) {
      throw new Error(`${label}: could not make its ${width}px WebP version (${(error as Error).message})`);
    }
    mkdirSync(cacheDir, { recursive: true });
    // Written whole, then renamed: a build stopped halfway never leaves half a file in the cache.
    const partial = `${cached}.${process.pid}.partial`;
    writeFileSync(partial, webp);
    renameSync(partial, cached);
  }
  copyFileSync(cached, target);
}

/**
 * A locale's images, as paths under the locales folder: `share.png`, every file under
 * `images/` (sub-folders too; a file there that is no image fails the build) and every
 * image file elsewhere in the locale's folder. Dot-files and dot-folders are skipped.
 */
function listImages(localesDir: string, locale: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    const dir = join(localesDir, folder);
    if (!existsSync(dir)) return;
    const entries = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (isImageFile(entry.name) || path.startsWith(`${locale}/images/`)) found.push(path);
    }
  };
  walk(locale);
  return found;
}
