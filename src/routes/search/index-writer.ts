// The index file of one locale, written directly in MiniSearch's serialisation (the
// plain object `MiniSearch#toJSON` returns, version 2), which `loadSearchIndex` reads
// with `MiniSearch.loadJS`. MiniSearch's own `add` keeps every term in a radix tree
// and every posting in nested Maps, and `toJSON` then copies them all into objects:
// at 2,000 pages a locale that was 1.8 s (German) to 4.8 s (Japanese) of the build and
// most of its garbage. The file only needs postings, and documents arrive in id order,
// so a posting list here is a flat array per term and field, appended to, and the JSON
// is written as UTF-8 bytes as it is made. The same documents make the same object MiniSearch's own
// `toJSON` makes (test/routes/search/index-writer.test.ts checks it, term by term).
import '../../i18n/all-stemmers.ts';
import { termsOf } from '../../i18n/search-text.ts';
import { FIELDS, FORMAT, type IndexedPage, type PageEntry, titleField } from './engine.ts';
import { type CompactSource, compactOf } from './compact-index.ts';
import { chunksText, Utf8Chunks } from './utf8-chunks.ts';

/** Postings of one term: per field, [document id, frequency] pairs in document order. */
type Postings = number[][];

/** The serialised index of one locale's pages (what the build writes as a content-hashed asset). */
export function buildSearchIndex(locale: string, pages: readonly IndexedPage[]): string {
  return chunksText(writeSearchIndex(locale, pages).chunks);
}

/**
 * The serialised index of one locale's pages, as UTF-8 chunks in order (utf8-chunks.ts: a
 * large locale's file is never one string), and its compact form (compact-index.ts) made
 * from the same postings, so the build never parses the file it wrote. `analyse`: termsOf,
 * or what gives the same terms (the build's cache of them).
 */
export function writeSearchIndex(
  locale: string,
  pages: readonly IndexedPage[],
  analyse: (text: string, locale: string) => string[] = termsOf,
): { chunks: Uint8Array[]; compact: () => Uint8Array } {
  const entries: PageEntry[] = pages.map(({ path, title, fallback }) => ({ path, title, fallback }));
  const postings = new Map<string, Postings>();
  const documents: CompactSource['documents'][number][] = [];
  const averages = FIELDS.map(() => 0);
  let count = 0;
  for (const page of pages) count += page.sections.length;
  // The file in its order, each part written as soon as it is known: the field lengths as the
  // documents are indexed (before them, all that depends on their count), the stored
  // documents beside them (after the averages, known only at the end), then the terms.
  const head = new Utf8Chunks();
  head.write(`${JSON.stringify({ v: FORMAT, locale, pages: entries }).slice(0, -1)},"index":`);
  head.write(`{"documentCount":${count},"nextId":${count},"documentIds":{`);
  for (let i = 0; i < count; i++) head.write(`${i ? ',' : ''}"${i}":${i}`);
  head.write(`},"fieldIds":${JSON.stringify(Object.fromEntries(FIELDS.map((field, i) => [field, i])))},"fieldLength":{`);
  const stored = new Utf8Chunks();
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
      const comma = id ? ',' : '';
      head.write(`${comma}"${id}":[${lengths.join(',')}]`);
      const document = { p, a: section.id, h: section.heading, t: section.text };
      stored.write(`${comma}"${id}":${JSON.stringify(document)}`);
      documents.push({ ...document, lengths });
      id++;
    }
  }
  head.write(`},"averageFieldLength":${JSON.stringify(id ? averages : [])},"storedFields":{`);
  head.append(stored);
  head.write('},"dirtCount":0,"index":[');
  let first = true;
  for (const [term, fields] of postings) {
    const byField = fields.flatMap((list, field) => (list.length ? [`"${field}":${pairs(list)}`] : []));
    head.write(`${first ? '' : ','}[${JSON.stringify(term)},{${byField.join(',')}}]`);
    first = false;
  }
  head.write('],"serializationVersion":2}}');
  const documentCount = id;
  return {
    chunks: head.chunks(),
    compact: () =>
      compactOf({
        locale,
        pages: entries,
        documentCount,
        averageFieldLength: documentCount ? averages : [],
        terms: [...postings],
        documents,
      }),
  };
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
