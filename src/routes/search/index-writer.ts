// The index file of one locale, written directly in MiniSearch's serialisation (the
// plain object `MiniSearch#toJSON` returns, version 2), which `loadSearchIndex` reads
// with `MiniSearch.loadJS`. MiniSearch's own `add` keeps every term in a radix tree
// and every posting in nested Maps, and `toJSON` then copies them all into objects:
// at 2,000 pages a locale that was 1.8 s (German) to 4.8 s (Japanese) of the build and
// most of its garbage. The file only needs postings, and documents arrive in id order,
// so a posting list here is a flat array per term and field, appended to, and the JSON
// is written as UTF-8 bytes when it is asked for. The same documents make the same object
// MiniSearch's own `toJSON` makes (test/routes/search/index-writer.test.ts checks it, term by term).
import '../../i18n/all-stemmers.ts';
import { termsOf } from '../../i18n/search-text.ts';
import { FIELDS, FORMAT, type IndexedPage, type PageEntry, titleField } from './engine.ts';
import { type CompactIndex, type CompactSource, compactOf, documentString, FIELD_COUNT, termAt } from './compact-index.ts';
import { chunksText, Utf8Chunks } from './utf8-chunks.ts';

/** Postings of one term: per field, [document id, frequency] pairs in document order. */
type Postings = number[][];

/** The serialised index of one locale's pages (what the build writes as a content-hashed asset). */
export function buildSearchIndex(locale: string, pages: readonly IndexedPage[]): string {
  return chunksText([...writeSearchIndex(locale, pages).json()]);
}

/** What one index holds once its pages are indexed: both its forms are written from it. */
type Indexed = {
  locale: string;
  entries: PageEntry[];
  averages: number[];
  postings: Map<string, Postings>;
  documents: CompactSource['documents'][number][];
};

/**
 * One locale's pages indexed once, and its two forms made from the same postings, each when
 * it is asked for: the file (`json`, UTF-8 chunks in order, each given as soon as it is full:
 * a large locale's file is never one string, and a reader that stops early never makes the
 * rest) and its compact form (compact-index.ts), so the build never parses the file it
 * wrote, and writes no file a browser will never download. `analyse`: termsOf, or what
 * gives the same terms (the build's cache of them).
 */
export function writeSearchIndex(
  locale: string,
  pages: readonly IndexedPage[],
  analyse: (text: string, locale: string) => string[] = termsOf,
): { json: () => Generator<Uint8Array>; compact: () => Uint8Array } {
  const entries: PageEntry[] = pages.map(({ path, title, fallback }) => ({ path, title, fallback }));
  const postings = new Map<string, Postings>();
  const documents: CompactSource['documents'][number][] = [];
  const averages = FIELDS.map(() => 0);
  let id = 0;
  // A term list per field of a page's title, made once: it is indexed in every section of its page.
  for (const [p, page] of pages.entries()) {
    const titleTerms = analyse(titleField(page), locale);
    for (const section of page.sections) {
      const lengths = [titleTerms, analyse(section.heading, locale), analyse(section.text, locale)].map((found, field) =>
        addTerms(postings, field, id, found),
      );
      // MiniSearch's running average, in its order of operations, so the numbers match to the last bit.
      for (const [field, length] of lengths.entries()) averages[field] = (averages[field]! * id + length) / (id + 1);
      documents.push({ p, a: section.id, h: section.heading, t: section.text, lengths });
      id++;
    }
  }
  const indexed: Indexed = { locale, entries, averages, postings, documents };
  return {
    json: () => jsonChunks(indexed),
    compact: () =>
      compactOf({
        locale,
        pages: entries,
        documentCount: documents.length,
        averageFieldLength: documents.length ? averages : [],
        terms: [...postings],
        documents,
      }),
  };
}

/**
 * The index file of a compact block (`npm run export` needs the file of an index the build
 * found too large to download, and wrote the compact form alone). It is the file a build
 * would have written but for the order of its terms (their bytes' order here, the order
 * they were first met there), which loading ignores: it loads as the same block
 * (compact-index.ts#compactIndex), so a browser finds the same results.
 */
export function indexFileOf(index: CompactIndex): Generator<Uint8Array> {
  const postings = new Map<string, Postings>();
  for (let i = 0; i < index.termCount; i++) {
    const fields = FIELDS.map((_, field) => {
      const list: number[] = [];
      const end = index.postingOffsets[i * FIELD_COUNT + field + 1]!;
      for (let at = index.postingOffsets[i * FIELD_COUNT + field]!; at < end; at++) list.push(index.docs[at]!, index.freqs[at]!);
      return list;
    });
    postings.set(termAt(index, i), fields);
  }
  const documents = Array.from({ length: index.documentCount }, (_, d) => ({
    p: index.docPages[d]!,
    a: documentString(index, d, 0),
    h: documentString(index, d, 1),
    t: documentString(index, d, 2),
    lengths: [...index.fieldLengths.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT)],
  }));
  const { locale, pages, averageFieldLength } = index;
  return jsonChunks({ locale, entries: [...pages], averages: [...averageFieldLength], postings, documents });
}

/** How many documents or terms are written between two looks for full chunks. */
const WRITES_PER_TAKE = 256;
/** Small enough that a reader that stops early (the build, once it knows a file is too large to download) makes little more than it reads. */
const JSON_CHUNK_BYTES = 64 * 1024;

/** The index file's bytes in its order, each chunk given as soon as it is full. */
function* jsonChunks({ locale, entries, averages, postings, documents }: Indexed): Generator<Uint8Array> {
  const out = new Utf8Chunks(JSON_CHUNK_BYTES);
  const count = documents.length;
  out.write(`${JSON.stringify({ v: FORMAT, locale, pages: entries }).slice(0, -1)},"index":`);
  out.write(`{"documentCount":${count},"nextId":${count},"documentIds":{`);
  for (let i = 0; i < count; i++) {
    out.write(`${i ? ',' : ''}"${i}":${i}`);
    if (i % WRITES_PER_TAKE === 0) yield* out.take();
  }
  out.write(`},"fieldIds":${JSON.stringify(Object.fromEntries(FIELDS.map((field, i) => [field, i])))},"fieldLength":{`);
  for (const [i, { lengths }] of documents.entries()) {
    out.write(`${i ? ',' : ''}"${i}":[${lengths.join(',')}]`);
    if (i % WRITES_PER_TAKE === 0) yield* out.take();
  }
  out.write(`},"averageFieldLength":${JSON.stringify(count ? averages : [])},"storedFields":{`);
  for (const [i, { p, a, h, t }] of documents.entries()) {
    out.write(`${i ? ',' : ''}"${i}":${JSON.stringify({ p, a, h, t })}`);
    if (i % WRITES_PER_TAKE === 0) yield* out.take();
  }
  out.write('},"dirtCount":0,"index":[');
  let written = 0;
  for (const [term, fields] of postings) {
    const byField = fields.flatMap((list, field) => (list.length ? [`"${field}":${pairs(list)}`] : []));
    out.write(`${written ? ',' : ''}[${JSON.stringify(term)},{${byField.join(',')}}]`);
    if (++written % WRITES_PER_TAKE === 0) yield* out.take();
  }
  out.write('],"serializationVersion":2}}');
  yield* out.chunks();
}

/** Adds one field's terms of document `id`; returns how many distinct terms it has (MiniSearch's field length). */
function addTerms(postings: Map<string, Postings>, field: number, id: number, terms: readonly string[]): number {
  let distinct = 0;
  for (const term of terms) {
    let fields = postings.get(term);
    if (!fields) {
      fields = FIELDS.map(() => []);
      postings.set(term, fields);
    }
    const list = fields[field]!;
    // Documents come in order: this document's pair, if any, is the last one.
    if (list[list.length - 2] === id) list[list.length - 1]!++;
    else {
      list.push(id, 1);
      distinct++;
    }
  }
  return distinct;
}

/** `{"<id>":<frequency>,...}` from [id, frequency, id, frequency...]. */
function pairs(list: readonly number[]): string {
  let out = '{';
  for (let i = 0; i < list.length; i += 2) out += `${i ? ',' : ''}"${list[i]}":${list[i + 1]}`;
  return `${out}}`;
}
