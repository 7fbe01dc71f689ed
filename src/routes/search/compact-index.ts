// A locale's search index in one block of bytes: what the engine walks, on the server
// and in the browser. MiniSearch keeps a loaded index in nested Maps and objects (at
// 2,000 pages of a locale about 90 MB of heap and over a second to load); here every
// term's postings are ranges of typed arrays and every string stays UTF-8 bytes until a
// hit needs it, so a large locale is about the size of its text, read with no parsing.
//
// Layout: a little-endian u32 with the header's length, the header (JSON: counts, field
// averages, the pages, where each part starts), then the parts, each 4-byte aligned:
// term offsets and term bytes (UTF-8, sorted by bytes, so a prefix is a range), per term
// and field the offsets of its postings, the postings' document ids and frequencies,
// every document's field lengths and page, and its anchor, heading and text.
import type { AsPlainObject } from 'minisearch';
import type { PageEntry } from './engine.ts';

export const COMPACT_FORMAT = 1;
/** Fields in this order everywhere: the title (of the section's page), the heading, the text. */
export const FIELD_COUNT = 3;

type Header = {
  v: typeof COMPACT_FORMAT;
  locale: string;
  pages: PageEntry[];
  documentCount: number;
  termCount: number;
  averageFieldLength: number[];
  /** Byte offset and length of each part, from the start of the block. */
  parts: Record<PartName, [number, number]>;
};
type PartName =
  | 'termOffsets'
  | 'termBytes'
  | 'postingOffsets'
  | 'docs'
  | 'freqs'
  | 'fieldLengths'
  | 'docPages'
  | 'stringOffsets'
  | 'strings';

/** A loaded compact index: views on its block, nothing copied. */
export type CompactIndex = {
  locale: string;
  pages: readonly PageEntry[];
  documentCount: number;
  termCount: number;
  averageFieldLength: readonly number[];
  termOffsets: Uint32Array;
  termBytes: Uint8Array;
  /** Postings of term i in field f: docs/freqs from postingOffsets[i * 3 + f] to postingOffsets[i * 3 + f + 1]. */
  postingOffsets: Uint32Array;
  docs: Uint32Array;
  freqs: Uint32Array;
  fieldLengths: Uint32Array;
  docPages: Uint32Array;
  /** Document d's anchor, heading and text: strings from stringOffsets[d * 3 + k] to stringOffsets[d * 3 + k + 1]. */
  stringOffsets: Uint32Array;
  strings: Uint8Array;
  /** The block's size: what the index holds in memory. */
  bytes: number;
};

export type IndexFile = { v: number; locale: string; pages: PageEntry[]; index: AsPlainObject };
type StoredSection = { p: number; a: string; h: string; t: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * What a compact block is made of: an index's terms with their postings, and its documents.
 * The build makes it as it writes the index file (index-writer.ts), without parsing that file.
 */
export type CompactSource = {
  locale: string;
  pages: PageEntry[];
  documentCount: number;
  averageFieldLength: readonly number[];
  /** Each term and, per field, its postings: [document id, frequency, ...] in id order (missing: none). */
  terms: [term: string, postings: readonly (readonly number[] | undefined)[]][];
  /** Per document: its page, anchor, heading and text, and its field lengths. */
  documents: readonly (StoredSection & { lengths: readonly number[] })[];
};

/** The compact block of an index file (the JSON `buildSearchIndex` writes, which the browser downloads), parsed. */
export function compactIndex({ locale, pages, index }: IndexFile): Uint8Array {
  const stored = index.storedFields as Record<string, StoredSection>;
  const lengths = index.fieldLength as Record<string, number[]>;
  return compactOf({
    locale,
    pages,
    documentCount: index.documentCount,
    averageFieldLength: index.averageFieldLength as number[],
    terms: index.index.map(([term, fields]) => [
      term,
      Array.from({ length: FIELD_COUNT }, (_, field) => {
        const list = (fields as Record<string, Record<string, number>>)[field];
        if (!list) return undefined;
        // Document ids in order: a page's sections are found in order.
        const ids = Object.keys(list)
          .map(Number)
          .sort((a, b) => a - b);
        return ids.flatMap((id) => [id, list[id]!]);
      }),
    ]),
    documents: Array.from({ length: index.documentCount }, (_, d) => ({ ...stored[d]!, lengths: lengths[d]! })),
  });
}

/**
 * The compact block of an index's terms and documents. Every part is measured first, then
 * written in place in the block: a large locale's parts are never held beside the block.
 */
export function compactOf({ locale, pages, documentCount, averageFieldLength, terms: source, documents }: CompactSource): Uint8Array {
  const terms = source.map(([term, fields]) => ({ term, bytes: encoder.encode(term), fields }));
  terms.sort((a, b) => compareBytes(a.bytes, 0, a.bytes.length, b.bytes));
  let termLength = 0;
  let postingCount = 0;
  for (const { bytes, fields } of terms) {
    termLength += bytes.length;
    for (const list of fields) postingCount += (list?.length ?? 0) / 2;
  }
  let stringLength = 0;
  for (const section of documents) stringLength += utf8Length(section.a) + utf8Length(section.h) + utf8Length(section.t);

  // Each part's size in bytes, in the block's order.
  const sizes: [PartName, number][] = [
    ['termOffsets', 4 * (terms.length + 1)],
    ['termBytes', termLength],
    ['postingOffsets', 4 * (terms.length * FIELD_COUNT + 1)],
    ['docs', 4 * postingCount],
    ['freqs', 4 * postingCount],
    ['fieldLengths', 4 * documentCount * FIELD_COUNT],
    ['docPages', 4 * documentCount],
    ['stringOffsets', 4 * (documentCount * 3 + 1)],
    ['strings', stringLength],
  ];
  const header = (placed: Header['parts']): Uint8Array =>
    encoder.encode(
      JSON.stringify({
        v: COMPACT_FORMAT,
        locale,
        pages,
        documentCount,
        termCount: terms.length,
        averageFieldLength: documentCount ? [...averageFieldLength] : [0, 0, 0],
        parts: placed,
      } satisfies Header),
    );
  // The header names where the parts start, and its length moves them: place them until it settles.
  let placed = {} as Header['parts'];
  let headerBytes = header(placed);
  for (;;) {
    const next = {} as Header['parts'];
    let end = align(4 + headerBytes.length);
    for (const [name, size] of sizes) {
      next[name] = [end, size];
      end = align(end + size);
    }
    const nextBytes = header(next);
    placed = next;
    if (nextBytes.length === headerBytes.length) {
      headerBytes = nextBytes;
      break;
    }
    headerBytes = nextBytes;
  }
  const last = sizes.at(-1)![0];
  const block = new Uint8Array(align(placed[last][0] + placed[last][1]));
  new DataView(block.buffer).setUint32(0, headerBytes.length, true);
  block.set(headerBytes, 4);
  const words = (name: PartName) => new Uint32Array(block.buffer, placed[name][0], placed[name][1] / 4);

  const termOffsets = words('termOffsets');
  const termBytes = block.subarray(placed.termBytes[0], placed.termBytes[0] + termLength);
  const postingOffsets = words('postingOffsets');
  const docs = words('docs');
  const freqs = words('freqs');
  let termAt = 0;
  let at = 0;
  for (const [i, { bytes, fields }] of terms.entries()) {
    termOffsets[i] = termAt;
    termBytes.set(bytes, termAt);
    termAt += bytes.length;
    for (let field = 0; field < FIELD_COUNT; field++) {
      postingOffsets[i * FIELD_COUNT + field] = at;
      const list = fields[field];
      if (!list) continue;
      for (let k = 0; k < list.length; k += 2) {
        docs[at] = list[k]!;
        freqs[at] = list[k + 1]!;
        at++;
      }
    }
  }
  termOffsets[terms.length] = termAt;
  postingOffsets[terms.length * FIELD_COUNT] = at;

  const fieldLengths = words('fieldLengths');
  const docPages = words('docPages');
  const stringOffsets = words('stringOffsets');
  const strings = block.subarray(placed.strings[0], placed.strings[0] + stringLength);
  let stringAt = 0;
  for (let d = 0; d < documentCount; d++) {
    const section = documents[d]!;
    for (let field = 0; field < FIELD_COUNT; field++) fieldLengths[d * FIELD_COUNT + field] = section.lengths[field]!;
    docPages[d] = section.p;
    for (const [k, text] of [section.a, section.h, section.t].entries()) {
      stringOffsets[d * 3 + k] = stringAt;
      stringAt += encoder.encodeInto(text, strings.subarray(stringAt)).written;
    }
  }
  stringOffsets[documentCount * 3] = stringAt;
  return block;
}

/** How many bytes TextEncoder makes of `text` (a lone surrogate is U+FFFD, three bytes). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes++;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Views on a compact block (copied once only if it does not start 4-byte aligned). */
export function readCompactIndex(block: Uint8Array): CompactIndex {
  const bytes = block.byteOffset % 4 === 0 ? block : block.slice();
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const header = JSON.parse(decoder.decode(bytes.subarray(4, 4 + headerLength))) as Header;
  if (header.v !== COMPACT_FORMAT) throw new Error(`compact search index format ${String(header.v)}, expected ${COMPACT_FORMAT}: rebuild`);
  const u32 = (name: PartName) => {
    const [start, length] = header.parts[name];
    return new Uint32Array(bytes.buffer, bytes.byteOffset + start, length / 4);
  };
  const u8 = (name: PartName) => {
    const [start, length] = header.parts[name];
    return bytes.subarray(start, start + length);
  };
  return {
    locale: header.locale,
    pages: header.pages,
    documentCount: header.documentCount,
    termCount: header.termCount,
    averageFieldLength: header.averageFieldLength,
    termOffsets: u32('termOffsets'),
    termBytes: u8('termBytes'),
    postingOffsets: u32('postingOffsets'),
    docs: u32('docs'),
    freqs: u32('freqs'),
    fieldLengths: u32('fieldLengths'),
    docPages: u32('docPages'),
    stringOffsets: u32('stringOffsets'),
    strings: u8('strings'),
    bytes: bytes.byteLength,
  };
}

/** The range [from, to) of terms that start with `prefix` (UTF-8 bytes); an exact match, if any, is `from`. */
export function termRange(index: CompactIndex, prefix: Uint8Array): [number, number] {
  const { termOffsets, termBytes, termCount } = index;
  // First term not below the prefix.
  let lo = 0;
  let hi = termCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(termBytes, termOffsets[mid]!, termOffsets[mid + 1]!, prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  const from = lo;
  // First term past every term that starts with the prefix.
  hi = termCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (startsWith(termBytes, termOffsets[mid]!, termOffsets[mid + 1]!, prefix)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

/** Term i, as a string. */
export function termAt(index: CompactIndex, i: number): string {
  return decoder.decode(index.termBytes.subarray(index.termOffsets[i], index.termOffsets[i + 1]));
}

/** Term i's length in UTF-16 units (as MiniSearch weighs a prefix match), without making the string for ASCII. */
export function termLength(index: CompactIndex, i: number): number {
  const start = index.termOffsets[i]!;
  const end = index.termOffsets[i + 1]!;
  for (let at = start; at < end; at++) if (index.termBytes[at]! >= 0x80) return termAt(index, i).length;
  return end - start;
}

/** Is term i exactly `bytes`? */
export function termIs(index: CompactIndex, i: number, bytes: Uint8Array): boolean {
  const start = index.termOffsets[i]!;
  return index.termOffsets[i + 1]! - start === bytes.length && startsWith(index.termBytes, start, start + bytes.length, bytes);
}

/** Document d's anchor (0), heading (1) or text (2). */
export function documentString(index: CompactIndex, d: number, k: 0 | 1 | 2): string {
  return decoder.decode(index.strings.subarray(index.stringOffsets[d * 3 + k], index.stringOffsets[d * 3 + k + 1]));
}

export function encodeTerm(term: string): Uint8Array {
  return encoder.encode(term);
}

function compareBytes(bytes: Uint8Array, start: number, end: number, other: Uint8Array): number {
  const length = Math.min(end - start, other.length);
  for (let i = 0; i < length; i++) {
    const difference = bytes[start + i]! - other[i]!;
    if (difference !== 0) return difference;
  }
  return end - start - other.length;
}

function startsWith(bytes: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[start + i] !== prefix[i]) return false;
  return true;
}

const align = (n: number) => (n + 3) & ~3;
