/**
 * A map bounded by the bytes its values hold; when it is over, the oldest entry
 * goes first (a Map keeps insertion order). Used for things made once and read
 * many times: rendered pages, page data, not-found pages, search results, the
 * words of quoted sections. Shared by the server and the browser (it imports nothing).
 */
export class BoundedCache<V> {
  #entries = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;
  constructor(
    readonly maxBytes: number,
    /** The bytes an entry holds (its key's too, where the key is large or the visitor's). */
    private readonly sizeOf: (value: V, key: string) => number,
  ) {}

  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value, key);
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
