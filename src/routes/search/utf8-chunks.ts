// Text written as UTF-8 into a list of byte chunks as it is made: a large file (a locale's
// search index) is never held as one string, nor as a string and its bytes at once. Small
// writes are gathered into a short string first (encoding each few bytes alone costs more
// than the encoding); a chunk may be left part-filled where another list is appended after
// it (`append`), so nothing is copied to join them.

const CHUNK_BYTES = 1024 * 1024;
/** Characters gathered before they are encoded. */
const PENDING_CHARS = 16 * 1024;
const encoder = new TextEncoder();

export class Utf8Chunks {
  /** `chunkBytes`: each chunk's size (at least 4, the longest character). */
  constructor(private readonly chunkBytes = CHUNK_BYTES) {}
  private readonly done: Uint8Array[] = [];
  private chunk: Uint8Array | null = null;
  private at = 0;
  private pending = '';

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= PENDING_CHARS) this.encode();
  }

  /** Every chunk of `other` after this one's bytes (`other` is not written to again). */
  append(other: Utf8Chunks): void {
    this.seal();
    this.done.push(...other.chunks());
  }

  /** The chunks filled so far, taken out of the list: a reader may pass them on while the rest is written. */
  take(): Uint8Array[] {
    return this.done.splice(0);
  }

  /** The bytes written, in order (the list is not written to again). */
  chunks(): Uint8Array[] {
    this.seal();
    return this.done;
  }

  private encode(): void {
    let rest = this.pending;
    this.pending = '';
    while (rest) {
      this.chunk ??= new Uint8Array(this.chunkBytes);
      const { read, written } = encoder.encodeInto(rest, this.chunk.subarray(this.at));
      this.at += written;
      if (read === rest.length) return;
      // Full (or too full for the next character): on to a new chunk.
      rest = rest.slice(read);
      this.seal();
    }
  }

  /** The chunk so far into the list; a chunk mostly empty is copied to its size, so the rest is freed. */
  private seal(): void {
    if (this.pending) this.encode();
    if (!this.chunk) return;
    if (this.at) this.done.push(this.at < this.chunkBytes / 2 ? this.chunk.slice(0, this.at) : this.chunk.subarray(0, this.at));
    this.chunk = null;
    this.at = 0;
  }
}

/** The chunks as one text (where a caller wants the file as a string: tests, the development server). */
export function chunksText(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
