// Every cache the server keeps, with its bound, in one place. docs/architecture.md
// lists them ("Five copies of a page, and what bounds them"), and
// test/server/memory-bounds.test.ts checks that list against these figures.
// A string cache counts UTF-16 characters (what a JS string costs is about twice that).

const KiB = 1024;
const MiB = 1024 * KiB;

export const MEMORY_BOUNDS = {
  /** Rendered documents and page data, with their compressed forms (http/app.ts, by URL path). */
  renderedBytes: 16 * MiB,
  /** Not-found pages, by the path asked for: visitors make the keys, so a cache of their own. */
  notFoundBytes: 4 * MiB,
  /** Search result pages and their page data, by locale and query. */
  searchBytes: 4 * MiB,
  /** Search answers (hits before rendering), by locale and the terms searched (site/site-search.ts). */
  searchAnswersBytes: 2 * MiB,
  /** PageData made from content (pages/page-store.ts), by locale and page key: characters of its JSON. */
  pageDataChars: 4 * MiB,
  /** Document shells, everything around #root but the critical CSS they share (pages/page-document.ts), by page: characters. */
  shellChars: 1 * MiB,
  /** Slab size of the stores above: bodies are copied into slabs of this many bytes (http/stored-body.ts). */
  slabBytes: 1 * MiB,
  /** Access log lines waiting to be written (http/log.ts): one pipe write, never interleaved. */
  logBatchBytes: 4 * KiB,
} as const;
