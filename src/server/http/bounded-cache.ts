import { BodyArena, type StoredBody } from './stored-body.ts';

/**
 * A map bounded by the bytes its values hold; when it is over, the oldest entry
 * goes first (a Map keeps insertion order). Used for things made once and read
 * many times: rendered pages, page data, not-found pages.
 */
export class BoundedCache<V> {
  #entries = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    this.#evict();
  }

  #evict(): void {
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const old = this.#entries.get(key);
    if (!old) return;
    this.#bytes -= old.bytes;
    this.#entries.delete(key);
  }

  /** The entry's value grew by `bytes` (e.g. a compressed form was added): count them, and make room. */
  grow(key: string, bytes: number): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.bytes += bytes;
    this.#bytes += bytes;
    this.#evict();
  }

  /** Bytes held, as counted by `sizeOf` and `grow`. */
  get bytes(): number {
    return this.#bytes;
  }
}

/**
 * Rendered pages (and page data) by path. Pages are immutable between deploys,
 * so each is rendered once and repeats cost a Map lookup and a write. The bound
 * counts every form kept: the body, and its br and gzip forms as they are made.
 * Not-found pages, whose text names the requested path, go to a separate small
 * one (app.ts), so requests for endless made-up paths cannot push real pages out.
 */
export class RenderCache extends BoundedCache<StoredBody> {
  /** Where this cache's bodies are kept: give it to each StoredBody made for it. */
  readonly arena = new BodyArena();
  constructor(maxBytes: number) {
    super(maxBytes, (body) => body.identity.length);
  }

  override set(key: string, body: StoredBody): void {
    super.set(key, body);
    // Only while this body is the one kept under the key (an evicted body may still be in use).
    body.onGrow = (bytes) => this.get(key) === body && this.grow(key, bytes);
  }
}
