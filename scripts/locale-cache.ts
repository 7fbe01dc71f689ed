// A whole locale's part of the build kept between builds: when nothing it reads changed,
// its snapshot part and search indexes are linked from the content cache and its pages are
// not loaded at all (no source read, no front matter parsed, no link checked, no pack or
// index rewritten). What a locale's compile reads (scripts/build-content.ts, site.ts):
// - whole: its own page files, the default locale's page files it serves as fallbacks (it
//   has no published translation of them), with each one's git date;
// - in part: every other page file, for its name (the page keys links resolve against) and
//   its front matter (a slug, a draft: only the front matter is read of it), so an edit of
//   a page's text in one locale rebuilds that locale alone;
// - whole: every other file of the content folder (messages of every locale, translation
//   records, _section.yml files, images) and of the docs versions beside it;
// - the compiler's code hash, the locales, the content folder's path and the working folder
//   (problems and warnings name files relative to it).
// A page file is known by its size, times and inode (an atomic save is a new inode); its
// front matter is read again only when those changed (the heads memo).
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { threadId } from 'node:worker_threads';
import { keyOf } from '../src/server/content/site.ts';
import { type ContentFile, contentFiles } from '../src/server/content/content-files.ts';
import { cacheFileName } from '../src/server/content/cache-file.ts';
import { place, sameStamp, stampOf } from './index-cache.ts';

const FORMAT = 1;
/** Front matter longer than this is not read in part: its file counts whole for every locale. */
const HEAD_BYTES = 4096;
const PAGE_FILE = /^[/\\]([^/\\]+)[/\\]pages[/\\](.+\.md)$/;

/** A page file, with its line in the key of a locale that reads it whole, and of one that reads only its front matter. */
type PageFile = { locale: string; key: string; rel: string; whole: string; part: string; clean: boolean };
/** A page file's stamp, its front matter's digest (null: not read in part) and whether it has no `draft:`. */
type Head = [stamp: string, head: string | null, clean: boolean];

/**
 * Each locale's key: a hash of everything its compile reads (see above). `dir` holds the
 * heads memo; `dates` are the build's git dates by path under `localesDir`; `files`, the
 * walk of the content (content-files.ts), unless the caller made it already. `published`:
 * the page files whose front matter has no `draft:` key (loadSite need not read them again).
 */
export function localeKeys(
  dir: string,
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  code: string,
  dates: ReadonlyMap<string, string>,
  files: readonly ContentFile[] = contentFiles(localesDir),
): { keys: Map<string, string>; published: string[] } {
  const memoFile = join(dir, `heads-${cacheFileName(localesDir, '')}.json`);
  const memo = readHeads(memoFile);
  const heads = new Map<string, Head>();
  let changed = false;
  const global = createHash('sha256').update(JSON.stringify([FORMAT, code, resolve(localesDir), process.cwd(), locales, defaultLocale]));
  const pages: PageFile[] = [];
  for (const { name, path, stat } of files) {
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
    // A content file's path under the folder is its name without the leading separator (path.relative resolved both paths per file).
    const under = name.startsWith(sep) ? name.slice(1) : relative(localesDir, path);
    const date = dates.get(sep === '/' ? under : under.split(sep).join('/')) ?? '';
    const page = PAGE_FILE.exec(name);
    if (!page) {
      global.update(`${name}\0${stamp}\0${date}\n`);
      continue;
    }
    const kept = memo.get(name);
    const head: Head = kept && kept[0] === stamp ? kept : [stamp, ...readHead(path)];
    if (head !== kept) changed = true;
    heads.set(name, head);
    const whole = `F${name}\0${stamp}\0${date}\n`;
    pages.push({
      locale: page[1]!,
      key: keyOf(page[2]!),
      rel: name,
      whole,
      part: head[1] === null ? whole : `S${name}\0${head[1]}\n`,
      clean: head[2],
    });
  }
  if (changed || heads.size !== memo.size) writeHeads(dir, memoFile, heads);
  const site = global.digest('base64url');
  const keys = new Map<string, string>();
  for (const locale of locales) {
    // The default locale's pages it has a published translation of are read only for their front matter.
    const translated = new Set(pages.filter((page) => page.locale === locale && page.clean).map((page) => page.key));
    const lines = pages.map((page) =>
      page.locale === locale || (page.locale === defaultLocale && !translated.has(page.key)) ? page.whole : page.part,
    );
    // One update of the joined lines: an update per page cost more than hashing their bytes.
    keys.set(
      locale,
      createHash('sha256')
        .update(`${site}\0${locale}\n${lines.join('')}`)
        .digest('base64url'),
    );
  }
  const published = pages.filter((page) => page.clean).map((page) => join(localesDir, page.rel));
  return { keys, published };
}

/** The digest of a page file's front matter as splitFrontMatter finds it, or null when it ends past the head; and whether it has no `draft:` key. */
function readHead(file: string): [head: string | null, clean: boolean] {
  const fd = openSync(file, 'r');
  let text: string;
  let whole: boolean;
  try {
    const bytes = Buffer.allocUnsafe(HEAD_BYTES);
    const got = readSync(fd, bytes, 0, HEAD_BYTES, 0);
    whole = got < HEAD_BYTES;
    text = bytes.toString('utf8', 0, headEnd(bytes, got));
  } finally {
    closeSync(fd);
  }
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return ['none', true];
  const end = text.indexOf('\n---', 3);
  // The closing line and the character after it are inside the head: what follows is the body.
  if (end === -1 || end + 5 > text.length) return whole ? [digest(text), false] : [null, false];
  const front = text.slice(0, end + 5);
  return [digest(front), !/^draft[ \t]*:/m.test(front)];
}

/**
 * How many of the `got` bytes read decide the head: all of them, unless the front matter's
 * closing line is found in the bytes (no carriage return before it), then up to it and the
 * character after it (at most four bytes): the text of that prefix finds the same closing
 * line and the same front matter as the whole, and the body after it is not decoded.
 */
function headEnd(bytes: Buffer, got: number): number {
  const read = bytes.subarray(0, got);
  const close = read.indexOf('\n---', 3);
  if (close === -1 || close + 5 > got) return got;
  const end = Math.min(got, close + 8);
  return read.subarray(0, end).includes(13) ? got : end;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

function readHeads(file: string): Map<string, Head> {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { format: number; heads: [string, ...Head][] };
    if (kept.format !== FORMAT) return new Map();
    return new Map(kept.heads.map(([rel, ...head]) => [rel, head]));
  } catch {
    return new Map();
  }
}

function writeHeads(dir: string, file: string, heads: ReadonlyMap<string, Head>): void {
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, JSON.stringify({ format: FORMAT, heads: [...heads].map(([rel, head]) => [rel, ...head]) }));
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** A locale's staged snapshot part and index files as the cache keeps them (build-content.ts stages them). */
export type KeptLocale<Whole> = {
  /** The part's lines (snapshot.ts) and its bodies' file. */
  lines: string;
  bodies: { file: string; bytes: number };
  /** Each index: its scope, URL and key in the index cache (index-cache.ts). */
  indexes: { scope: string; url: string; key: string }[];
  /** How many pages the locale serves. */
  pages: number;
  warnings: string[];
  whole?: Whole;
};

type Entry<Whole> = Omit<KeptLocale<Whole>, 'lines' | 'bodies'> & {
  format: number;
  key: string;
  bytes: number;
  /** Size and modification time of part.bin and lines.txt as kept (a file written over in place is seen). */
  stamps: [number, number][];
};

const FILES = ['part.bin', 'lines.txt'] as const;

function entryDir(dir: string, localesDir: string, locale: string): string {
  return join(dir, cacheFileName(localesDir, locale));
}

/** Whether the cache holds an entry of the site's locale, of any key. */
export function hasLocale(dir: string, localesDir: string, locale: string): boolean {
  return existsSync(join(entryDir(dir, localesDir, locale), 'entry.json'));
}

/**
 * The kept locale of `key`, its part linked to `bodiesFile` (then `restoreIndex` links each
 * index: see build-content.ts), or null when there is none or a part is not as kept.
 */
export function restoreLocale<Whole>(
  dir: string,
  localesDir: string,
  locale: string,
  key: string,
  bodiesFile: string,
): KeptLocale<Whole> | null {
  const folder = entryDir(dir, localesDir, locale);
  try {
    const entry = JSON.parse(readFileSync(join(folder, 'entry.json'), 'utf8')) as Entry<Whole>;
    if (entry.format !== FORMAT || entry.key !== key) return null;
    if (FILES.some((file, i) => !sameStamp(stampOf(join(folder, file)), entry.stamps[i]))) return null;
    const lines = readFileSync(join(folder, 'lines.txt'), 'utf8');
    place(join(folder, 'part.bin'), bodiesFile);
    // Used now: the oldest files are the ones dropped past the folder's bound (and the stamps follow).
    const now = new Date();
    for (const file of FILES) utimesSync(join(folder, file), now, now);
    writeEntry(folder, { ...entry, stamps: FILES.map((file) => stampOf(join(folder, file))) });
    const { format: _format, key: _key, bytes, stamps: _stamps, ...kept } = entry;
    return { ...kept, lines, bodies: { file: bodiesFile, bytes } };
  } catch {
    rmSync(bodiesFile, { force: true });
    return null;
  }
}

/** Keeps a locale built under `key` (its staged part linked, not copied), replacing the site's last entry for it. */
export function keepLocale<Whole>(dir: string, localesDir: string, locale: string, key: string, kept: KeptLocale<Whole>): void {
  const folder = entryDir(dir, localesDir, locale);
  const temporary = `${folder}.${process.pid}-${threadId}.tmp`;
  try {
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { recursive: true });
    place(kept.bodies.file, join(temporary, 'part.bin'));
    writeFileSync(join(temporary, 'lines.txt'), kept.lines);
    const { lines: _lines, bodies, ...rest } = kept;
    const entry: Entry<Whole> = {
      ...rest,
      format: FORMAT,
      key,
      bytes: bodies.bytes,
      stamps: FILES.map((file) => stampOf(join(temporary, file))),
    };
    writeEntry(temporary, entry);
    rmSync(folder, { recursive: true, force: true });
    renameSync(temporary, folder);
  } catch {
    // A cache that cannot be written costs the next build time, never this one's output.
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** entry.json, written beside and renamed over the last. */
function writeEntry(folder: string, entry: Entry<unknown>): void {
  const temporary = join(folder, `entry.json.${process.pid}-${threadId}.tmp`);
  writeFileSync(temporary, JSON.stringify(entry));
  renameSync(temporary, join(folder, 'entry.json'));
}
