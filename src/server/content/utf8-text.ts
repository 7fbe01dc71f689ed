// A compiled page's HTML and Markdown twin, held as UTF-8 bytes off the heap until a request
// needs the text (site.ts). The snapshot writes those same bytes: `utf8Bytes` hands them over
// without decoding them to a string and encoding it again.
const BYTES = Symbol('utf8 bytes');

type Utf8Text = (() => string) & { [BYTES]?: Buffer };

/** `text` kept as UTF-8 bytes; the function returns it as a string. */
export function utf8Text(text: string): () => string {
  const bytes = Buffer.from(text);
  const read: Utf8Text = () => bytes.toString();
  read[BYTES] = bytes;
  return read;
}

/** The UTF-8 bytes of what `text` returns: those it holds when utf8Text made it. */
export function utf8Bytes(text: () => string): Buffer {
  return (text as Utf8Text)[BYTES] ?? Buffer.from(text());
}
