import { BoundedCache } from '../../routes/bounded-cache.ts';
import { BodyArena, type StoredBody } from './stored-body.ts';

export { BoundedCache };

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
