import { createHash } from 'node:crypto';
import type { DocsVersion } from './versions.ts';
import { type ContentFile, walkContentFiles } from './content-files.ts';
import { closeSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledMessages } from '../../i18n/intl.ts';
import { sitePathsBuilder } from './paths.ts';
import type { Site, SourcePage } from './site.ts';
import { utf8Bytes } from './utf8-text.ts';

// Compiled content written by `npm run build`, so start-up does not run Markdown
// or load its parser: a faster cold start and a smaller process. Two files:
// dist/content.json holds everything but the pages' HTML (front matter, slugs,
// messages), and dist/content.html holds the HTML of every page, one after the
// other in UTF-8. The server reads the first at start and each page's HTML only
// when a request needs it, so a site of thousands of pages does not carry its
// text in the heap. content.json is JSON lines, a header and then one line per
// page: parsed line by line, a large site never makes one string of the whole
// file (at 10,000 pages, 8 MB of UTF-8 is a 16 MB two-byte string, which would sit
// in the heap as garbage until a full collection). After the header, one line per
// locale indexes its pages (each one's key, path and line length: Index); start-up
// reads the header and these lines only. A page's own line is read and parsed on its
// first use (SnapshotPages), so the docs versions nobody reads cost no heap and no
// start-up time beyond their paths. The snapshot is used only while
// the content folder is exactly what was built (names, sizes, modification times,
// locales); otherwise the server compiles from source, so an edited page is never
// served stale.

export const SNAPSHOT_FILE = 'content.json';
export const BODIES_FILE = 'content.html';
/**
 * Changed with the layout of either file: 2 has per-locale starts and each page's headings
 * after its HTML; 3 each page's last change; 4 its Markdown twin after its headings; 7 `at`
 * beside the page in its line; 8 a line is its `Entry`, a tab, and the page (parsed on first use);
 * 9 a line per locale indexes its pages' lines before them.
 */
const FORMAT = 9;

/** A page without its HTML, headings, Markdown twin and section text, and without what its line's `Entry` holds. */
type StoredPage = Omit<SourcePage, 'html' | 'headings' | 'markdown' | 'sections' | 'key' | 'localPath'>;
/**
 * Where a page's parts are in the bodies file: [byte offset from its locale's start, byte
 * length of the HTML, of the headings (JSON), which follow the HTML, and of the twin, which
 * follows them]. Beside the page in its line, not in it: the parsed page is used as it is.
 */
type At = [number, number, number, number];

/**
 * The head of a page's line: its locale, key and path there, where its parts are, and
 * whether it names a share image of its own (1). The rest of the page follows on its
 * line, after a tab (JSON never holds a raw tab), and the line is read and parsed when
 * the page is first used.
 */
type Entry = [locale: string, key: string, localPath: string, at: At, image?: 1];

/**
 * What start-up reads of one locale's pages, one line: the locale, then for each page in
 * the order of their lines its key, its path (0 when it is the key), 1 when it names a share
 * image of its own (which start-up checks) else 0, and the byte length of its line. One
 * flat array: a large site, and each of its docs versions, costs start-up a key and a path
 * per page, not an object.
 */
type Index = [locale: string, ...(string | number)[]];
/** The items of a page in an Index. */
const INDEX_ITEMS = 4;

/** The first line: everything but the pages; then an Index line per part, then one `Entry` TAB `StoredPage` line per page. */
type Header = {
  /** The layout of both files (FORMAT). */
  format: number;
  fingerprint: string;
  locales: string[];
  defaultLocale: string;
  translations: [string, string[]][];
  versions: DocsVersion[];
  messages: [string, CompiledMessages][];
  /** Where each locale's HTML starts in the bodies file: a page's offset counts from there. */
  starts: [string, number][];
};

/**
 * A hash of the content folder's file names, sizes and modification times (and the
 * locales): a snapshot is used only while it is the same as at build time. `files`: the
 * walk of the content (content-files.ts), when the caller made it already; otherwise each
 * file is hashed as the walk finds it, and none is kept (server start-up).
 */
export function contentFingerprint(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  files?: readonly ContentFile[],
): string {
  const hash = createHash('sha256').update(JSON.stringify([locales, defaultLocale]));
  // The lines in batches: one update per file was a tenth of the fingerprint's cost. The
  // same bytes either way, so the same hash as the build's.
  let lines = '';
  const add = (name: string, stat: { size: number; mtimeMs: number }) => {
    lines += `${name}\0${stat.size}\0${stat.mtimeMs}\n`;
    if (lines.length > 64 * 1024) {
      hash.update(lines);
      lines = '';
    }
  };
  // The docs' versions beside the content folder are content too (versions.ts).
  if (files) for (const { name, stat } of files) add(name, stat);
  else walkContentFiles(localesDir, (name, _path, stat) => add(name, stat));
  return hash.update(lines).digest('base64url');
}

/**
 * One locale's pages as the snapshot stores them: each page's HTML and then its
 * headings (JSON) and its Markdown twin, one page after the other, and a JSON line per
 * page giving where they are within these bytes. A large site's build makes the parts
 * of its locales in several threads, each written to a file of its own as it is made
 * (`stageSnapshotPart`), so no thread holds a locale's bytes, and the main thread none
 * (scripts/build-content.ts); `bodies` is then that file and its length.
 */
export type SnapshotPart = { locale: string; lines: string; bodies: Uint8Array | StagedBodies };
export type StagedBodies = { file: string; bytes: number };

export function snapshotPart(site: Site, locale: string): SnapshotPart {
  const bodies: Buffer[] = [];
  const lines = partLines(site, locale, (chunk) => bodies.push(chunk));
  return { locale, lines, bodies: Buffer.concat(bodies) };
}

/** `snapshotPart` with its bodies written to `file` page by page, never held together. */
export function stageSnapshotPart(site: Site, locale: string, file: string): SnapshotPart {
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    const lines = partLines(site, locale, (chunk) => {
      writeFileSync(fd, chunk);
      bytes += chunk.length;
    });
    return { locale, lines, bodies: { file, bytes } };
  } finally {
    closeSync(fd);
  }
}

/** Each page's bytes to `emit`, in order; returns the part's lines. */
function partLines(site: Site, locale: string, emit: (chunk: Buffer) => void): string {
  const lines: string[] = [];
  let offset = 0;
  // The section text is left out: the search index files the build writes hold it.
  for (const { html, headings, markdown, sections: _sections, key, localPath, ...page } of site.pages.get(locale)!.values()) {
    const body = utf8Bytes(html);
    const headingsJson = Buffer.from(JSON.stringify(headings()));
    const twin = utf8Bytes(markdown);
    emit(Buffer.concat([body, headingsJson, twin]));
    const stored: StoredPage = page;
    const at: At = [offset, body.length, headingsJson.length, twin.length];
    offset += body.length + headingsJson.length + twin.length;
    const entry: Entry = page.image === undefined ? [locale, key, localPath, at] : [locale, key, localPath, at, 1];
    lines.push(`${JSON.stringify(entry)}\t${JSON.stringify(stored)}`);
  }
  return lines.join('\n');
}

/** What the snapshot's header says of the site besides its pages. */
export type SnapshotSite = Pick<Site, 'locales' | 'defaultLocale' | 'translations' | 'versions'>;

/**
 * Writes both files next to each other: `site`'s locales, paths and translations,
 * and each locale's pages from `parts` (made from `site` when not given and it has them). Each file
 * is written aside and renamed into place, so a server still running from an older
 * build keeps reading the file it opened (same inode), never a half-written or a
 * newer one.
 */
export function writeSnapshot(
  dir: string,
  fingerprint: string,
  site: Site | SnapshotSite,
  messages: ReadonlyMap<string, CompiledMessages>,
  parts: readonly SnapshotPart[] = 'pages' in site ? site.locales.map((locale) => snapshotPart(site, locale)) : [],
): void {
  const starts: [string, number][] = [];
  let start = 0;
  for (const { locale, bodies } of parts) {
    starts.push([locale, start]);
    start += bodies instanceof Uint8Array ? bodies.length : bodies.bytes;
  }
  const header: Header = {
    format: FORMAT,
    fingerprint,
    locales: [...site.locales],
    defaultLocale: site.defaultLocale,
    translations: [...site.translations].map(([slug, locales]) => [slug, [...locales]]),
    versions: [...site.versions],
    messages: [...messages],
    starts,
  };
  // Part after part, never joined: a large site's HTML is written without a second copy of it in memory.
  writeAside(
    join(dir, BODIES_FILE),
    parts.map((part) => part.bodies),
  );
  writeAside(join(dir, SNAPSHOT_FILE), [
    JSON.stringify(header),
    ...parts.map((part) => `\n${JSON.stringify(indexOf(part))}`),
    ...parts.filter((part) => part.lines).map((part) => `\n${part.lines}`),
    '\n',
  ]);
}

/** A part's Index, from the head of each of its lines. */
function indexOf({ locale, lines }: SnapshotPart): Index {
  const index: Index = [locale];
  if (!lines) return index;
  for (const line of lines.split('\n')) {
    const [, key, localPath, , image] = JSON.parse(line.slice(0, line.indexOf('\t'))) as Entry;
    index.push(key, localPath === key ? 0 : localPath, image ?? 0, Buffer.byteLength(line));
  }
  return index;
}

function writeAside(file: string, chunks: (string | Uint8Array | StagedBodies)[]): void {
  const fd = openSync(`${file}.tmp`, 'w');
  try {
    for (const chunk of chunks) {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) writeFileSync(fd, chunk);
      else copyInto(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(`${file}.tmp`, file);
}

/** A staged part's bytes appended to `fd`, a megabyte at a time. */
function copyInto(fd: number, { file, bytes }: StagedBodies): void {
  const from = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(Math.min(bytes, 1024 * 1024));
    for (let done = 0; done < bytes; ) {
      const got = readSync(from, chunk, 0, chunk.length, done);
      if (got === 0) throw new Error(`${file} ends at byte ${done} of ${bytes}`);
      writeFileSync(fd, chunk.subarray(0, got));
      done += got;
    }
  } finally {
    closeSync(from);
  }
}

/**
 * The built content, or null when there is none or the content folder changed since.
 * `withImages`: the pages that name a share image of their own (start-up checks them).
 */
export function readSnapshot(
  dir: string,
  fingerprint: string,
): { site: Site; messages: Map<string, CompiledMessages>; withImages: [locale: string, page: SourcePage][] } | null {
  let header: Header;
  let indexes: Index[];
  let firstLine: number;
  let fd: number;
  let linesFd: number;
  try {
    // Open once and kept open for the life of the process: a page's HTML is one positioned read,
    // and so is a page's line, on its first use.
    linesFd = openSync(join(dir, SNAPSHOT_FILE), 'r');
    const head = new LineReader(linesFd);
    header = JSON.parse(head.line());
    // Other content, or an older build's layout: compile instead of misreading it.
    if (header.fingerprint !== fingerprint || header.format !== FORMAT) {
      closeSync(linesFd);
      return null;
    }
    indexes = header.starts.map(() => JSON.parse(head.line()) as Index);
    firstLine = head.position;
    fd = openSync(join(dir, BODIES_FILE), 'r');
  } catch {
    return null;
  }
  // One buffer for every read (reads are synchronous, one at a time): a page's bytes
  // are decoded into a string at once, and a buffer per read would only be garbage.
  let scratch = Buffer.allocUnsafeSlow(64 * 1024);
  const readFrom = (from: number, offset: number, length: number, what: string): string => {
    if (length > scratch.length) scratch = Buffer.allocUnsafeSlow(length);
    let done = 0;
    while (done < length) {
      const got = readSync(from, scratch, done, length - done, offset + done);
      if (got === 0) throw new Error(`${what} ends before byte ${offset + length}: rebuild (npm run build)`);
      done += got;
    }
    return scratch.toString('utf8', 0, length);
  };
  const read = (offset: number, length: number) => readFrom(fd, offset, length, BODIES_FILE);
  const starts = new Map(header.starts);
  // Where each page's line starts in content.json and how long it is, by its number: small
  // integers in two arrays, not an object per page.
  const lineStarts: number[] = [];
  const lineLengths: number[] = [];
  /** A page from its whole line: its entry, a tab, and the page. */
  const pageOf = (number: number): SourcePage => {
    const line = readFrom(linesFd, lineStarts[number]!, lineLengths[number]!, SNAPSHOT_FILE);
    const tab = line.indexOf('\t');
    const [locale, key, localPath, at] = JSON.parse(line.slice(0, tab)) as Entry;
    const [start0, htmlBytes, headingsBytes, markdownBytes] = at;
    const start = starts.get(locale)! + start0;
    // The parsed object becomes the page: a copy of each was start-up's garbage on a large versioned site.
    const page = JSON.parse(line.slice(tab + 1)) as SourcePage;
    page.key = key;
    page.localPath = localPath;
    page.sections = [];
    page.html = () => read(start, htmlBytes);
    page.headings = () => JSON.parse(read(start + htmlBytes, headingsBytes));
    page.markdown = () => read(start + htmlBytes + headingsBytes, markdownBytes);
    return page;
  };
  const pages = new Map(header.locales.map((locale) => [locale, new SnapshotPages(pageOf)]));
  const paths = sitePathsBuilder(header.locales, header.defaultLocale);
  const withImages: [string, SourcePage][] = [];
  let next = firstLine;
  for (const index of indexes) {
    const locale = index[0];
    const served = pages.get(locale)!;
    const addPath = paths.adder(locale);
    for (let item = 1; item < index.length; item += INDEX_ITEMS) {
      const key = index[item] as string;
      const localPath = index[item + 1] as string | 0;
      const bytes = index[item + 3] as number;
      served.add(key, lineStarts.length);
      lineStarts.push(next);
      lineLengths.push(bytes);
      next += bytes + 1;
      // Most pages' path is their key: one string for both.
      addPath(key, localPath === 0 ? key : localPath);
      if (index[item + 2] === 1) withImages.push([locale, served.get(key)!]);
    }
  }
  return {
    site: {
      locales: header.locales,
      defaultLocale: header.defaultLocale,
      pages,
      translations: new Map(header.translations),
      paths: paths.done(),
      versions: header.versions,
    },
    messages: new Map(header.messages),
    withImages,
  };
}

/** The first lines of a file, read a megabyte at a time; `position` is where the next line starts. */
class LineReader {
  position = 0;
  #chunk = Buffer.alloc(0);
  /** Where #chunk starts in the file. */
  #at = 0;
  readonly #fd: number;

  constructor(fd: number) {
    this.#fd = fd;
  }

  line(): string {
    for (;;) {
      const end = this.#chunk.indexOf(0x0a, this.position - this.#at);
      if (end !== -1) {
        const text = this.#chunk.toString('utf8', this.position - this.#at, end);
        this.position = this.#at + end + 1;
        return text;
      }
      // The rest of this chunk and the next megabyte, in one buffer (a header or an index can be longer than a chunk).
      const rest = this.#chunk.subarray(this.position - this.#at);
      const more = Buffer.allocUnsafe(rest.length + 1024 * 1024);
      rest.copy(more);
      const got = readSync(this.#fd, more, rest.length, more.length - rest.length, this.#at + this.#chunk.length);
      if (got === 0) throw new Error(`${SNAPSHOT_FILE} ends within a line: rebuild (npm run build)`);
      this.#at = this.position;
      this.#chunk = more.subarray(0, rest.length + got);
    }
  }
}

/**
 * One locale's pages from the snapshot, a Map like any other to its users: every key is
 * there from the start, in the build's order, and each page is parsed from its line the
 * first time it is got (or iterated over), then kept. Start-up iterates keys, not pages,
 * so a docs version nobody reads is never parsed (a page parsed is about 1 KB of heap).
 */
class SnapshotPages extends Map<string, SourcePage> {
  readonly #parse: (line: number) => SourcePage;

  constructor(parse: (line: number) => SourcePage) {
    super();
    this.#parse = parse;
  }

  /**
   * A page not parsed yet: in its key's place, the number of its line in content.json (a
   * small integer, no object). Start-up makes a key, a path and this per page: on a
   * versioned site, objects per page were most of what its garbage collections copied.
   */
  add(key: string, line: number): void {
    super.set(key, line as unknown as SourcePage);
  }

  override get(key: string): SourcePage | undefined {
    const page = super.get(key) as SourcePage | number | undefined;
    if (typeof page !== 'number') return page;
    const parsed = this.#parse(page);
    super.set(key, parsed);
    return parsed;
  }

  /**
   * The page, parsed for this caller alone when it is not parsed yet: kept only by who
   * asked. A docs tree reads every page of its version once, for titles and order, and a
   * reader opens a few of them: those are the ones kept (`get`).
   */
  peek(key: string): SourcePage | undefined {
    const page = super.get(key) as SourcePage | number | undefined;
    return typeof page === 'number' ? this.#parse(page) : page;
  }

  override *values(): MapIterator<SourcePage> {
    for (const key of this.keys()) yield this.get(key)!;
  }

  override *entries(): MapIterator<[string, SourcePage]> {
    for (const key of this.keys()) yield [key, this.get(key)!];
  }

  override [Symbol.iterator](): MapIterator<[string, SourcePage]> {
    return this.entries();
  }

  override forEach(each: (page: SourcePage, key: string, map: Map<string, SourcePage>) => void, self?: unknown): void {
    for (const [key, page] of this.entries()) each.call(self, page, key, this);
  }
}

/** A page to read and let go (SnapshotPages#peek); any other map's page as it is. */
export function peekPage(pages: ReadonlyMap<string, SourcePage>, key: string): SourcePage | undefined {
  return pages instanceof SnapshotPages ? pages.peek(key) : pages.get(key);
}
