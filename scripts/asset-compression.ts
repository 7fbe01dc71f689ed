// The brotli and gzip siblings of a built asset (name.br, name.gz), which koa-static
// serves by Accept-Encoding: made once at build time, at the best levels a file's
// size allows.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';

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
