// The content step of `npm run build`: every page's Markdown in every locale
// compiled, and each locale's search index made from it. For a large site these
// are the build's largest steps (at 10,000 pages on a 2-core AMD EPYC, about 10 s
// of reading and compiling and 7 s of indexing on one thread), so from
// WORKERS_FROM_FILES files the locales are shared between this thread and worker
// threads: each compiles its locales, indexes them and makes their part of the
// snapshot, so only a few buffers and strings per locale cross threads (the
// snapshot part's bytes and lines, the finished index, the buffers moved rather
// than copied), never a page as objects. Each thread reads the sources of its
// locales and of the default locale (their fallbacks) and reports their problems;
// the problems of all are joined. A small site is done in process, as the server
// does it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { charactersWithoutSpaces } from '../src/i18n/search-text.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { loadContent } from '../src/server/content/load-content.ts';
import { contentDates } from '../src/server/content/git-dates.ts';
import type { Site } from '../src/server/content/site.ts';
import { type SnapshotPart, snapshotPart, writeSnapshot } from '../src/server/content/snapshot.ts';
import type { MessageCatalog } from '../src/server/content/messages.ts';
import { type IndexFile, makeIndexFiles, searchScopes } from '../src/server/site/search-indexes.ts';
import { compactIndex } from '../src/routes/search/compact-index.ts';
import { parseIndexFile } from '../src/routes/search/engine.ts';
import { type Compressed, compressAsset } from './asset-compression.ts';
import { type JobWorker, startWorker } from './ts-worker.ts';
import { setHighlightCache } from '../src/server/content/markdown/highlight-cache.ts';

/** From this many Markdown files (all locales), more threads pay for themselves. */
const WORKERS_FROM_FILES = 2000;

type Job = {
  localesDir: string;
  locales: readonly string[];
  defaultLocale: string;
  serving: string[];
  /** Each file's last change (git-dates.ts), read once by the main thread for all. */
  dates: [string, string][];
  /** Where highlighted blocks are kept between builds (highlight-cache.ts), or null. */
  cacheDir: string | null;
};
/**
 * An index file as bytes (UTF-8 JSON, what is written and compressed), with its brotli and
 * gzip forms, and its compact block (what the server loads: compact-index.ts).
 */
export type BuiltIndex = { locale: string; url: string; bytes: Uint8Array; compact: Uint8Array } & Compressed;
type Answer = { parts: SnapshotPart[]; indexes: BuiltIndex[] } | { problems: readonly string[] } | { error: string };

/** What the build writes of the content: the snapshot (a writer, so no caller mistakes one thread's pages for the site) and each locale's index. */
export type CompiledContent = {
  writeSnapshot(dir: string, fingerprint: string): void;
  /** In the order of `locales`. */
  indexes: BuiltIndex[];
};

export type ContentCompiler = { compile(defaultLocale: string): Promise<CompiledContent> };

/**
 * The compiled site, ready to write as the snapshot, and each locale's search index,
 * in two steps: this call starts the worker threads a site of this size gets, which
 * take about a second to boot (loading the compilers), so the build makes them
 * first and reads its fingerprint and messages meanwhile; `compile` then shares
 * the locales out and does the work.
 *
 * How many threads: one per core plus one, up to one per locale. A locale is a
 * large, indivisible piece (its index is one file): at 2,000 pages a locale on 2
 * cores, two threads split five locales 11.2 s against 14.1 s of work at best,
 * while three let the system share the cores out until every thread is done.
 */
export function contentCompiler(
  localesDir: string,
  locales: readonly string[],
  { workersFrom = WORKERS_FROM_FILES, cpus = availableParallelism(), cacheDir = null as string | null } = {},
): ContentCompiler {
  setHighlightCache(cacheDir);
  const threads = markdownFiles(localesDir) < workersFrom || cpus < 2 ? 1 : Math.min(locales.length, cpus + 1);
  const workers = Array.from({ length: threads - 1 }, () => startWorker(import.meta.url));
  return {
    async compile(defaultLocale) {
      try {
        return await compileIn(workers, localesDir, locales, defaultLocale, cacheDir);
      } finally {
        await Promise.all(workers.map((worker) => worker.terminate()));
      }
    },
  };
}

/** `contentCompiler` in one call (tests, and a build with nothing to read between). */
export function compileSite(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  options: { workersFrom?: number; cpus?: number; cacheDir?: string | null } = {},
): Promise<CompiledContent> {
  return contentCompiler(localesDir, locales, options).compile(defaultLocale);
}

async function compileIn(
  workers: JobWorker[],
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  cacheDir: string | null,
): Promise<CompiledContent> {
  // Every thread runs the one content check (load-content.ts) on its locales; their problems are joined.
  // One git log for the whole content folder, whatever the threads (git-dates.ts).
  const dates = contentDates(localesDir, (message) => console.warn(`warning: ${message}`));
  if (!workers.length) {
    const { site, messages } = loadContent(localesDir, locales, defaultLocale, { dates });
    const indexes = await indexed(site, locales);
    return { writeSnapshot: (dir, fingerprint) => writeSnapshot(dir, fingerprint, site, messages), indexes };
  }
  const [here = [], ...there] = shareOut(localesDir, locales, workers.length + 1);
  // A worker is ended as soon as it answered (its buffers moved here): its heap, the pages it
  // compiled and their garbage, is freed while this thread and the others still work.
  const answers = there.map((serving, i) => {
    const worker = workers[i]!;
    return worker
      .ask<Answer>({ localesDir, locales, defaultLocale, serving, dates: [...dates], cacheDir } satisfies Job)
      .finally(() => worker.terminate());
  });
  const problems = new Set<string>();
  // This thread's pages (the workers' locales are empty in it): its paths and translations are the whole site's.
  let site: Site | null = null;
  let messages: MessageCatalog | null = null;
  let mine: Promise<BuiltIndex[]> = Promise.resolve([]);
  let myParts: SnapshotPart[] = [];
  try {
    ({ site, messages } = loadContent(localesDir, locales, defaultLocale, { serving: here, dates }));
    mine = indexed(site, here);
    mine.catch(() => {});
    myParts = here.map((locale) => snapshotPart(site!, locale));
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    for (const problem of error.problems) problems.add(problem);
  }
  const theirs = await Promise.all(answers);
  const failed = theirs.find((answer) => 'error' in answer);
  if (failed) throw new Error(failed.error);
  for (const answer of theirs) if ('problems' in answer) for (const problem of answer.problems) problems.add(problem);
  if (problems.size || !site || !messages) throw new ContentError([...problems]);
  const done = theirs.filter((answer) => 'parts' in answer);
  const parts = new Map([...myParts, ...done.flatMap((answer) => answer.parts)].map((part) => [part.locale, part]));
  const made = new Map([...(await mine), ...done.flatMap((answer) => answer.indexes)].map((file) => [file.locale, file]));
  const whole = site;
  const catalog = messages;
  return {
    writeSnapshot: (dir, fingerprint) =>
      writeSnapshot(
        dir,
        fingerprint,
        whole,
        catalog,
        locales.map((locale) => parts.get(locale)!),
      ),
    indexes: locales.flatMap((locale) => searchScopes(whole, locale).map((scope) => made.get(scope)!)),
  };
}

/**
 * The locales split in `count` shares of about equal work, largest first, each to the
 * lightest share. A locale's work grows with the bytes of its Markdown (about 0.37 s
 * per MB to compile and index on one thread here), and a character of a script
 * written without spaces (Japanese, Chinese, Thai) costs about one byte more, for the
 * dictionary that cuts it into words for the index: at 2,000 pages a locale, German
 * (6.7 MB) took 2.5 s, French (8.6 MB) 3.2 s, Japanese (9.3 MB, 2.2 million such
 * characters) 4.2 s. The bytes are summed, the characters counted in a sample of
 * each locale's files and scaled to its bytes.
 */
function shareOut(localesDir: string, locales: readonly string[], count: number): string[][] {
  const shares = Array.from({ length: count }, () => ({ locales: [] as string[], work: 0 }));
  const sized = locales.map((locale) => ({ locale, work: estimatedWork(join(localesDir, locale, 'pages')) }));
  for (const { locale, work } of sized.sort((a, b) => b.work - a.work)) {
    const share = shares.reduce((lightest, share) => (share.work < lightest.work ? share : lightest));
    share.locales.push(locale);
    share.work += work;
  }
  return shares.map((share) => share.locales);
}

const SAMPLED_FILES = 50;

function estimatedWork(dir: string): number {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.md'))
      .map((file) => join(dir, file));
  } catch {
    return 0; // A locale without pages: loadSite reports what it needs to.
  }
  let bytes = 0;
  for (const file of files) bytes += statSync(file).size;
  let sampledBytes = 0;
  let sampledWork = 0;
  const step = Math.max(1, Math.floor(files.length / SAMPLED_FILES));
  for (let i = 0; i < files.length; i += step) {
    const text = readFileSync(files[i]!, 'utf8');
    sampledBytes += Buffer.byteLength(text);
    sampledWork += Buffer.byteLength(text) + charactersWithoutSpaces(text);
  }
  return sampledBytes ? (bytes * sampledWork) / sampledBytes : 0;
}

/**
 * The locales' search indexes, one after the other, each compressed on libuv's thread
 * pool as soon as it is made: the compressing runs beside the next locale's indexing,
 * on whichever core is free, rather than after all of it.
 */
function indexed(site: Site, locales: readonly string[]): Promise<BuiltIndex[]> {
  return Promise.all(
    makeIndexFiles(site, locales).map(({ locale, url, json }: IndexFile) => {
      const bytes = Buffer.from(json);
      const compact = compactIndex(parseIndexFile(json));
      return compressAsset(bytes).then((forms) => ({ locale, url, bytes, compact, ...forms }));
    }),
  );
}

function markdownFiles(localesDir: string): number {
  return readdirSync(localesDir, { recursive: true }).filter((file) => String(file).endsWith('.md')).length;
}

if (!isMainThread) {
  parentPort!.on('message', async ({ localesDir, locales, defaultLocale, serving, dates, cacheDir }: Job) => {
    setHighlightCache(cacheDir);
    let answer: Answer;
    let transfer: ArrayBuffer[] = [];
    try {
      const { site } = loadContent(localesDir, locales, defaultLocale, { serving, dates: new Map(dates) });
      const indexes = indexed(site, serving);
      // The parts are made while the indexes are compressed on the thread pool.
      const parts = serving.map((locale) => snapshotPart(site, locale));
      answer = { parts, indexes: await indexes };
      // The large buffers (each locale's HTML, its index) move to the main thread instead of
      // being copied twice (at 2,000 pages a locale, copying them took 1 s of the build).
      transfer = [...parts.map((part) => part.bodies), ...answer.indexes.flatMap((index) => [index.bytes, index.compact])].flatMap(
        ownBuffer,
      );
    } catch (error) {
      answer = error instanceof ContentError ? { problems: error.problems } : { error: String((error as Error).stack ?? error) };
    }
    parentPort!.postMessage(answer, transfer);
  });
}

/** The memory under `view` if the view is all of it (never a slice of Node's shared pool), to transfer. */
function ownBuffer(view: Uint8Array): ArrayBuffer[] {
  const { buffer } = view;
  return buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength ? [buffer] : [];
}
