// Images as the build copies them into the hashed assets and as pages show them.
// The asset's name is a function of the source path and its bytes, so the
// compiler (any thread, or the server compiling at start) names the same file
// that scripts/build-images.ts writes, without the two talking.
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { imageSize } from 'image-size';

/** The image types a page may show, by file extension, with the type image-size reports for each. */
const TYPES: Record<string, string> = {
  '.png': 'png',
  '.jpg': 'jpg',
  '.jpeg': 'jpg',
  '.webp': 'webp',
  '.gif': 'gif',
  '.avif': 'avif',
  '.svg': 'svg',
};
const NAMES: Record<string, string> = { png: 'PNG', jpg: 'JPEG', webp: 'WebP', gif: 'GIF', avif: 'AVIF', svg: 'SVG' };

/** Whether a file name is an image the site can show, by its extension. */
export function isImageFile(name: string): boolean {
  return Object.hasOwn(TYPES, extname(name).toLowerCase());
}

/**
 * Width and height from the file's header. Throws, naming `label`, when the bytes are
 * not a whole image of the type the extension promises (the asset is served by its
 * extension, so a JPEG named .png would reach browsers as image/png).
 */
export function readImageSize(bytes: Uint8Array, label: string): { width: number; height: number } {
  const expected = TYPES[extname(label).toLowerCase()];
  if (!expected) throw new Error(`${label}: not a PNG, JPEG, WebP, GIF, AVIF or SVG file (by its extension)`);
  let found: ReturnType<typeof imageSize>;
  try {
    found = imageSize(bytes);
  } catch (error) {
    throw new Error(`${label}: not a readable image (${(error as Error).message})`);
  }
  if (found.type !== expected) throw new Error(`${label}: the file is ${found.type ?? 'of unknown type'}, not ${NAMES[expected]}`);
  const { width, height } = found;
  if (!width || !height) {
    throw new Error(
      expected === 'svg'
        ? `${label}: the SVG gives no size: give its <svg> element width and height, or a viewBox`
        : `${label}: the ${NAMES[expected]} header gives no size`,
    );
  }
  const cut = cutOff(bytes, expected);
  if (cut) throw new Error(`${label}: the file is cut off (${cut})`);
  return { width: Math.round(width), height: Math.round(height) };
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

/** The first 8 hex digits of the bytes' SHA-256, upper case: what names a file's version. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase();
}

/** The source path under the locales folder, flattened to a safe file name: `de/images/Launch Day.png` -> `de-images-Launch-Day-<HASH>.png`. */
export function imageAssetName(source: string, bytes: Uint8Array): string {
  const ext = extname(source);
  const stem = source.slice(0, -ext.length).replace(/[^A-Za-z0-9_-]+/g, '-');
  return `${stem}-${contentHash(bytes)}${ext.toLowerCase()}`;
}

/** The widths a raster image gets WebP versions at. */
export const VARIANT_STEPS = [640, 1280, 1920] as const;

/**
 * The WebP versions an image of this width gets: none when it is no wider than the
 * smallest step (it is shown at its own size); else every step below its width and
 * one at its own width (at most the largest step), so a wide screen never gets less
 * than the original's detail. SVGs and GIFs (possibly animated) get none.
 */
export function variantWidths(name: string, width: number): number[] {
  if (!/\.(png|jpe?g|webp|avif)$/i.test(name) || width <= VARIANT_STEPS[0]) return [];
  const widths: number[] = VARIANT_STEPS.filter((step) => step < width);
  const top = Math.min(width, VARIANT_STEPS.at(-1)!);
  if (!widths.includes(top)) widths.push(top);
  return widths;
}

/** `en-pages-diagram-1A2B3C4D.png` at 640 -> `en-pages-diagram-1A2B3C4D-640.webp`. */
export function variantName(name: string, width: number): string {
  return `${name.slice(0, -extname(name).length)}-${width}.webp`;
}

/** An image as a page shows it: its asset, its size, and its WebP versions. */
export type PageImage = { src: string; width: number; height: number; variants: { src: string; width: number }[] };

export function pageImage(source: string, bytes: Uint8Array, label: string): PageImage {
  const size = readImageSize(bytes, label);
  const name = imageAssetName(source, bytes);
  return {
    src: `/assets/${name}`,
    ...size,
    variants: variantWidths(name, size.width).map((width) => ({ src: `/assets/${variantName(name, width)}`, width })),
  };
}
