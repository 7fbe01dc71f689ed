// The brotli and gzip siblings of a built asset (name.br, name.gz), which koa-static
// serves by Accept-Encoding: made once at build time, at the best levels a file's
// size allows.
import { promisify } from 'node:util';
import { brotliCompress, constants, createGzip, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/** Files above this size get fast levels (brotli 5, gzip 6): brotli 11 runs at about 1 MB/s, and a large site's search indexes are megabytes. */
const BEST_COMPRESSION_UP_TO = 1024 * 1024;

export type Compressed = { br: Buffer; gz: Buffer };

function levels(size: number): { brotli: BrotliOptions; gzip: ZlibOptions } {
  const small = size <= BEST_COMPRESSION_UP_TO;
  return { brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: small ? 11 : 5 } }, gzip: { level: small ? 9 : 6 } };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** On libuv's thread pool, beside whatever this thread is doing. */
export async function compressAsset(bytes: Buffer): Promise<Compressed> {
  const { brotli, gzip: gz } = levels(bytes.length);
  const [br, gzipped] = await Promise.all([brotliAsync(bytes, brotli), gzipAsync(bytes, gz)]);
  return { br, gz: gzipped };
}

/**
 * A file made in chunks (`parts`, made as they are asked for), with its compressed forms,
 * unless its gzip form is over `maxGzipBytes`: then null, found as soon as the gzip made so
 * far is over, so the rest of the file is neither made nor compressed. The gzip is the one
 * `compressAsset` makes of the whole file (the same level, and deflate's output does not
 * depend on how its input is cut), so the answer is what its size would say.
 */
export async function compressedWithin(
  parts: Iterable<Uint8Array>,
  maxGzipBytes: number,
): Promise<({ bytes: Buffer } & Compressed) | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const iterator = parts[Symbol.iterator]();
  let next = iterator.next();
  // Its level depends on its size: known once the file ends, or is past the best levels' bound.
  while (!next.done && size <= BEST_COMPRESSION_UP_TO) {
    chunks.push(next.value);
    size += next.value.length;
    next = iterator.next();
  }
  if (next.done) {
    const bytes = Buffer.concat(chunks);
    const compressed = await compressAsset(bytes);
    return compressed.gz.length > maxGzipBytes ? null : { bytes, ...compressed };
  }
  const gzipped: Buffer[] = [];
  let gzipBytes = 0;
  const stream = createGzip(levels(size + 1).gzip);
  stream.on('data', (chunk: Buffer) => {
    gzipped.push(chunk);
    gzipBytes += chunk.length;
  });
  const written = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
  try {
    for (const chunk of chunks) await written(chunk);
    for (; !next.done; next = iterator.next()) {
      if (gzipBytes > maxGzipBytes) return null;
      chunks.push(next.value);
      await written(next.value);
    }
    await new Promise<void>((resolve, reject) => stream.once('end', resolve).once('error', reject).end());
  } finally {
    if (!stream.writableFinished) stream.destroy();
    // The rest is not made: a generator's own `finally` runs now.
    iterator.return?.();
  }
  if (gzipBytes > maxGzipBytes) return null;
  const bytes = Buffer.concat(chunks);
  chunks.length = 0;
  return { bytes, br: await brotliAsync(bytes, levels(bytes.length).brotli), gz: Buffer.concat(gzipped) };
}
