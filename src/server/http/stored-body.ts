import { MEMORY_BOUNDS } from '../memory-bounds.ts';
import Negotiator from 'negotiator';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';

export type Encoding = 'br' | 'gzip' | 'identity';
const OFFERED: Encoding[] = ['br', 'gzip', 'identity'];

/**
 * The client's preferred encoding among ours (q-values honoured; `identity;q=0`
 * respected by negotiator), or null when it accepts none of them
 * (`identity;q=0, *;q=0`): a 406, never a body it said it cannot take. On equal
 * q-values ours decides, not the header's order: browsers send
 * `gzip, deflate, br, zstd`, and brotli is the smaller body.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return 'identity';
  // Browsers send a handful of distinct values: negotiate each once.
  let chosen = choices.get(acceptEncoding);
  if (chosen === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as WithPreferred;
    const [best] = negotiator.encodings(OFFERED, { preferred: OFFERED });
    chosen = (best as Encoding | undefined) ?? null;
    if (choices.size >= 256) choices.clear();
    choices.set(acceptEncoding, chosen);
  }
  return chosen;
}
const choices = new Map<string, Encoding | null>();
// negotiator 1.1 takes the server's preference order; @types/negotiator predates it.
type WithPreferred = Negotiator & { encodings(available: string[], options: { preferred: string[] }): string[] };

/**
 * A response body kept in memory with its compressed forms, each made once, on
 * first demand, at a high level (it is paid once, then served many times).
 * `onGrow` hears the bytes each compressed form adds, so a cache can count them.
 */
export class StoredBody {
  #br: Buffer | undefined;
  #gzip: Buffer | undefined;
  onGrow: ((bytes: number) => void) | undefined;
  readonly identity: Buffer;
  /**
   * The headers each form was sent with the first time, as name, value, name, value
   * (those that are the same for every request for it): what cached-answers.ts
   * answers again with, without Koa.
   */
  readonly sentWith: Partial<Record<Encoding, readonly string[]>> = {};
  readonly #keep: (buffer: Buffer) => Buffer;
  /** `arena`: where a cache keeps its bodies (see BodyArena); without one, each form is a buffer of its own. */
  constructor(body: Buffer | readonly Buffer[] | string, arena?: BodyArena) {
    this.#keep = arena ? (buffer) => arena.copy(buffer) : compact;
    this.identity = arena
      ? arena.copy(body)
      : compact(typeof body === 'string' ? Buffer.from(body) : Array.isArray(body) ? Buffer.concat(body) : (body as Buffer));
  }

  get(encoding: Encoding): Buffer {
    if (encoding === 'br') {
      if (!this.#br) {
        this.#br = this.#keep(
          brotliCompressSync(this.identity, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 9,
              [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.length,
              // A window just larger than the body: the same bytes out, far less memory to make them.
              [constants.BROTLI_PARAM_LGWIN]: windowBits(this.identity.length),
            },
          }),
        );
        this.onGrow?.(this.#br.length);
      }
      return this.#br;
    }
    if (encoding === 'gzip') {
      if (!this.#gzip) {
        this.#gzip = this.#keep(gzipSync(this.identity, { level: 9 }));
        this.onGrow?.(this.#gzip.length);
      }
      return this.#gzip;
    }
    return this.identity;
  }
}

/**
 * A buffer kept for the life of the process that owns its memory exactly.
 * zlib's one-shot output is a view into its 16 KiB output chunk, and a small
 * Buffer is a view into Node's shared 8 KiB pool: kept as they are, a 2 KB
 * compressed page would hold 16 KiB, and the cache's count would be a fifth of
 * the truth.
 */
function compact(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer;
  const exact = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(exact);
  return exact;
}

/**
 * Where a cache keeps its bodies: copied one after the other into slabs of 1 MiB,
 * in the order they are stored. A page cache stores a few hundred pages and then
 * drops the oldest as it takes new ones. Kept as one allocation each, those tens
 * of kilobytes of long-lived bodies end up scattered through the C heap between
 * the short-lived buffers of every request, and the heap cannot give the space
 * back: at 10,000 pages, about 60 MB of resident memory beyond what the cache
 * holds. In slabs, the bodies of one stretch of time live together, and a slab is
 * freed whole once the cache has dropped all of them (a cache that evicts oldest
 * first drops them in about the order the slabs were filled). A body larger than
 * a quarter of a slab gets a buffer of its own.
 */
export class BodyArena {
  static readonly SLAB_BYTES = MEMORY_BOUNDS.slabBytes;
  #slab = Buffer.alloc(0);
  #used = 0;

  /** A copy of `body` in a slab: a buffer, the pieces of one (a streamed page), or text (UTF-8), copied straight in. */
  copy(body: Buffer | readonly Buffer[] | string): Buffer {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : Array.isArray(body) ? sumOfLengths(body) : (body as Buffer).length;
    if (length > BodyArena.SLAB_BYTES / 4)
      return compact(typeof body === 'string' ? Buffer.from(body) : Array.isArray(body) ? Buffer.concat(body) : (body as Buffer));
    if (this.#used + length > this.#slab.length) {
      this.#slab = Buffer.allocUnsafeSlow(BodyArena.SLAB_BYTES);
      this.#used = 0;
    }
    const view = this.#slab.subarray(this.#used, this.#used + length);
    if (typeof body === 'string') view.write(body);
    else if (Array.isArray(body)) {
      let at = 0;
      for (const piece of body as readonly Buffer[]) at += piece.copy(view, at);
    } else (body as Buffer).copy(view);
    // The next body starts on an 8-byte boundary, as an allocation of its own would.
    this.#used += (length + 7) & ~7;
    return view;
  }
}

function sumOfLengths(pieces: readonly Buffer[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/** Brotli's window for a body of `size` bytes: the smallest power of two that holds it, within brotli's 16..24. */
function windowBits(size: number): number {
  return Math.min(24, Math.max(16, Math.ceil(Math.log2(size + 1))));
}

/**
 * The per-request levels: fast, since these run for every response that is not
 * kept (a page's first answer, every answer with the render cache off, which a crawl
 * is made of). Brotli's quality 3 costs far less CPU than 4 for a few percent more bytes.
 * A 256 KiB brotli window (the default is 4 MiB) holds any page whole, and
 * 32 renders at once do not cost 128 MiB.
 */
const BROTLI_PER_REQUEST = { [constants.BROTLI_PARAM_QUALITY]: 3, [constants.BROTLI_PARAM_LGWIN]: 18 };
const GZIP_PER_REQUEST_LEVEL = 6;

/**
 * Compresses a stream as it flows. Each chunk React writes is flushed through
 * the compressor, so the shell still reaches the browser at once.
 */
export function compressStream(stream: Readable, encoding: Exclude<Encoding, 'identity'>): Transform {
  const compressor =
    encoding === 'br'
      ? createBrotliCompress({ flush: constants.BROTLI_OPERATION_FLUSH, params: BROTLI_PER_REQUEST })
      : createGzip({ flush: constants.Z_SYNC_FLUSH, level: GZIP_PER_REQUEST_LEVEL });
  stream.on('error', (error) => compressor.destroy(error));
  compressor.on('close', () => stream.destroy());
  return stream.pipe(compressor);
}

/**
 * Compresses a whole body made for one response, at the per-request level. On the event
 * loop, as the render that made it ran: handed to libuv's pool, a page's compression
 * cost more CPU in the hand-off (a stream and a round trip per 16 KiB chunk) than in
 * brotli itself, on the server's own core; at this level it takes less time than the render.
 */
export function compressWhole(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, { params: BROTLI_PER_REQUEST }) : gzipSync(body, { level: GZIP_PER_REQUEST_LEVEL });
}
