// Re-encodes Chromium's screenshot (8-bit RGB or RGBA PNG) as a palette PNG: a flat
// card with anti-aliased text has a few hundred colours, and one byte per pixel
// instead of three or four makes the file about half as large. Lossless when the
// image has at most 256 colours; otherwise the rarest colours (edge pixels of
// glyphs) take the nearest of the 256 most frequent ones, which the eye cannot tell.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type Rgb = {
  width: number;
  height: number;
  /** 3 bytes a pixel, row after row. */
  pixels: Buffer;
};

/** The pixels of a non-interlaced 8-bit RGB, RGBA or palette PNG, alpha dropped (a screenshot is opaque). */
export function decodePng(png: Buffer): Rgb {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let header: Buffer | undefined;
  let palette: Buffer | undefined;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = body;
    else if (type === 'PLTE') palette = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (!header) throw new Error('PNG without IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colourType, interlace] = [header[8], header[9], header[12]];
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : colourType === 3 && palette ? 1 : 0;
  if (depth !== 8 || !channels || interlace !== 0) {
    throw new Error(`unsupported PNG (bit depth ${depth}, colour type ${colourType}, interlace ${interlace})`);
  }
  const rows = unfilter(inflateSync(Buffer.concat(data)), width * channels, height, channels);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0, o = 0; i < rows.length; i += channels, o += 3) {
    if (palette) palette.copy(pixels, o, rows[i]! * 3, rows[i]! * 3 + 3);
    else rows.copy(pixels, o, i, i + 3);
  }
  return { width, height, pixels };
}

function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Buffer {
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      let value = line[x]!;
      if (filter === 1) value += a;
      else if (filter === 2) value += b;
      else if (filter === 3) value += (a + b) >> 1;
      else if (filter === 4) value += paeth(a, b, c);
      else if (filter !== 0) throw new Error(`bad PNG filter ${filter}`);
      out[row + x] = value & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A palette PNG of the image (colour type 3, 8 bits), compressed as hard as zlib goes. */
export function encodeIndexedPng({ width, height, pixels }: Rgb): Buffer {
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels.length; i += 3) {
    const rgb = (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!;
    counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
  }
  const palette = [...counts.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 256)
    .map(([rgb]) => rgb);
  const index = new Map<number, number>(palette.map((rgb, i) => [rgb, i]));
  const lookup = (rgb: number): number => {
    let found = index.get(rgb);
    if (found === undefined) {
      found = nearest(rgb, palette);
      index.set(rgb, found);
    }
    return found;
  };
  // Filter type 0 on every row: a palette index is not a quantity, so the arithmetic filters only add noise.
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[y * (width + 1) + 1 + x] = lookup((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.from(palette.flatMap((rgb) => [rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff]));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function nearest(rgb: number, palette: number[]): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  palette.forEach((candidate, i) => {
    const dr = (rgb >> 16) - (candidate >> 16);
    const dg = ((rgb >> 8) & 0xff) - ((candidate >> 8) & 0xff);
    const db = (rgb & 0xff) - (candidate & 0xff);
    const distance = dr * dr + dg * dg + db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  });
  return best;
}

function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function toIndexedPng(png: Buffer): Buffer {
  return encodeIndexedPng(decodePng(png));
}
