import type { StoredBody } from './compression.ts';

/**
 * Rendered pages by path. Pages are immutable between deploys, so each is
 * rendered once and repeats cost a Map lookup and a write. Bounded by bytes;
 * the oldest entry goes first (Map keeps insertion order). Not-found pages,
 * whose text names the requested path, go to a separate small one (app.ts), so
 * requests for endless made-up paths cannot push real pages out.
 */
export class RenderCache {
  #entries = new Map<string, StoredBody>();
  #bytes = 0;
  constructor(readonly maxBytes: number) {}

  get(key: string): StoredBody | undefined {
    return this.#entries.get(key);
  }

  set(key: string, body: StoredBody): void {
    this.delete(key);
    this.#entries.set(key, body);
    this.#bytes += body.identity.length;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const old = this.#entries.get(key);
    if (!old) return;
    this.#bytes -= old.identity.length;
    this.#entries.delete(key);
  }
}
