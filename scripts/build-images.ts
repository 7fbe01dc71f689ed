// The build's images: each locale's default share image (`<locale>/share.png`) and every
// image under `<locale>/images/`, copied into the hashed assets with their pixel size
// read from the file, for the manifest's `images` (Open Graph needs width and height).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { imageSize } from 'image-size';
import type { Manifest } from '../src/server/site/manifest.ts';

export type ImageEntry = Manifest['images'][string];

/** The types a share preview may use, by file extension, with the type image-size reports for each. */
const TYPES: Record<string, string> = { '.png': 'png', '.jpg': 'jpg', '.jpeg': 'jpg', '.webp': 'webp' };
const NAMES: Record<string, string> = { png: 'PNG', jpg: 'JPEG', webp: 'WebP' };

/**
 * Width and height from the file's header. Throws, naming `label`, when the bytes are
 * not a whole image of the type the extension promises (the asset is served by its
 * extension, so a JPEG named .png would reach browsers as image/png).
 */
export function readImageSize(bytes: Uint8Array, label: string): { width: number; height: number } {
  const expected = TYPES[extname(label).toLowerCase()];
  if (!expected) throw new Error(`${label}: not a PNG, JPEG or WebP file (by its extension)`);
  let found: ReturnType<typeof imageSize>;
  try {
    found = imageSize(bytes);
  } catch (error) {
    throw new Error(`${label}: not a readable image (${(error as Error).message})`);
  }
  if (found.type !== expected) throw new Error(`${label}: the file is ${found.type ?? 'of unknown type'}, not ${NAMES[expected]}`);
  const { width, height } = found;
  if (!width || !height) throw new Error(`${label}: the ${NAMES[expected]} header gives no size`);
  const cut = cutOff(bytes, expected);
  if (cut) throw new Error(`${label}: the file is cut off (${cut})`);
  return { width, height };
}

const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * What shows the file is not whole, if anything. image-size reads only the header, which a
 * truncated copy (an interrupted upload or checkout) still has. For JPEG only the end-of-image
 * marker's presence is checked: phones append data after it (motion photos).
 */
function cutOff(bytes: Uint8Array, type: string): string | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'png' && !buffer.subarray(-PNG_END.length).equals(PNG_END)) return 'it does not end with the IEND chunk';
  if (type === 'webp' && (buffer.length < 12 || buffer.readUInt32LE(4) + 8 !== buffer.length)) return 'its RIFF size is not its length';
  if (type === 'jpg' && buffer.indexOf(Buffer.from([0xff, 0xd9]), 2) === -1) return 'it has no end-of-image marker';
  return undefined;
}

/**
 * Copies every locale's images into `assetsDir` under content-hashed names and returns
 * the manifest's `images`, keyed by the path under the locales folder (`de/share.png`,
 * `en/images/launch.png`). A file it cannot read fails the build, naming the file.
 * A locale without its own `share.png` shares the default locale's (the server's
 * choice, share-image.ts): `warn` hears it, once per locale.
 */
export function buildImages(
  localesDir: string,
  locales: readonly string[],
  assetsDir: string,
  { defaultLocale = locales[0], warn = () => {} }: { defaultLocale?: string | undefined; warn?: (message: string) => void } = {},
): Record<string, ImageEntry> {
  const images: Record<string, ImageEntry> = {};
  const defaultImage = defaultLocale !== undefined && existsSync(join(localesDir, defaultLocale, 'share.png'));
  for (const locale of locales) {
    if (defaultImage && locale !== defaultLocale && !existsSync(join(localesDir, locale, 'share.png'))) {
      warn(`locales/${locale}/share.png is missing: its pages share ${defaultLocale}'s image (npm run share-images makes one per locale)`);
    }
    const sources = [`${locale}/share.png`, ...listImages(localesDir, `${locale}/images`)];
    for (const source of sources) {
      const file = join(localesDir, source);
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      const size = readImageSize(bytes, `locales/${source}`);
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase();
      // The source path, flattened to a safe file name: `de/images/Launch Day.png` -> `de-images-Launch-Day-<HASH>.png`.
      const stem = source.slice(0, -extname(source).length).replace(/[^A-Za-z0-9_-]+/g, '-');
      const name = `${stem}-${hash}${extname(source).toLowerCase()}`;
      writeFileSync(join(assetsDir, name), bytes);
      images[source] = { path: `/assets/${name}`, ...size };
    }
  }
  return images;
}

/** Files under `<locale>/images/` (sub-folders too), as paths under the locales folder; dot-files are skipped. */
function listImages(localesDir: string, folder: string): string[] {
  const dir = join(localesDir, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? listImages(localesDir, `${folder}/${entry.name}`) : [`${folder}/${entry.name}`]));
}
