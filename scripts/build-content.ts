// The content step of `npm run build`: every page's Markdown in every locale
// compiled, and each locale's search index made from it. For a large site these
// are the build's largest steps (at 10,000 pages on a 2-core AMD EPYC, about 10 s
// of reading and compiling and 7 s of indexing on one thread), so from
// WORKERS_FROM_FILES files the locales are shared between this thread and one
// worker: each side compiles its locales, indexes them and makes their part of the
// snapshot, so only a few buffers and strings per locale cross threads (the
// snapshot part's bytes and lines, the finished index), never a page as objects.
// Each side reads the sources of its locales and of the default locale (their
// fallbacks) and reports their problems; the two sides' problems are joined. A
// small site is done in process, as the server does it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { charactersWithoutSpaces } from '../src/i18n/search-text.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { loadSite, type Site } from '../src/server/content/site.ts';
import { type SnapshotPart, snapshotPart, writeSnapshot } from '../src/server/content/snapshot.ts';
import { loadMessages, type MessageCatalog } from '../src/server/messages.ts';
import { type IndexFile, makeIndexFiles } from '../src/server/search-indexes.ts';
import { type Compressed, compressAsset } from './asset-compression.ts';
import { ask, tsWorker } from './ts-worker.ts';

/** From this many Markdown files (all locales), a second thread pays for itself. */
const WORKERS_FROM_FILES = 2000;

type Job = { localesDir: string; locales: readonly string[]; defaultLocale: string; serving: string[] };
/** An index file with its brotli and gzip forms. */
export type BuiltIndex = IndexFile & Compressed;
type Answer = { parts: SnapshotPart[]; indexes: BuiltIndex[] } | { problems: readonly string[] } | { error: string };

/** What the build writes of the content: the snapshot (a writer, so no caller mistakes one thread's pages for the site) and each locale's index. */
export type CompiledContent = {
  writeSnapshot(dir: string, fingerprint: string): void;
  /** In the order of `locales`. */
  indexes: BuiltIndex[];
};

/** The compiled site, ready to write as the snapshot, and each locale's search index. */
export async function compileSite(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  messages: MessageCatalog,
  { workersFrom = WORKERS_FROM_FILES, cpus = availableParallelism() } = {},
): Promise<CompiledContent> {
  if (markdownFiles(localesDir) < workersFrom || cpus < 2 || locales.length < 2) {
    const site = loadSite(localesDir, locales, defaultLocale, messages);
    const indexes = await indexed(site, locales);
    return { writeSnapshot: (dir, fingerprint) => writeSnapshot(dir, fingerprint, site, messages), indexes };
  }
  const [here, there] = shareOut(localesDir, locales);
  const worker = tsWorker(import.meta.url);
  try {
    const answer = ask<Answer>(worker, { localesDir, locales, defaultLocale, serving: there } satisfies Job);
    const problems = new Set<string>();
    // This thread's pages (the worker's locales are empty in it): its paths and translations are the whole site's.
    let site: Site | null = null;
    let mine: Promise<BuiltIndex[]> = Promise.resolve([]);
    let myParts: SnapshotPart[] = [];
    try {
      site = loadSite(localesDir, locales, defaultLocale, messages, { serving: here });
      mine = indexed(site, here);
      mine.catch(() => {});
      myParts = here.map((locale) => snapshotPart(site!, locale));
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
    const theirs = await answer;
    if ('error' in theirs) throw new Error(theirs.error);
    if ('problems' in theirs) for (const problem of theirs.problems) problems.add(problem);
    if (problems.size || !site || !('parts' in theirs)) throw new ContentError([...problems]);
    const parts = new Map([...myParts, ...theirs.parts].map((part) => [part.locale, part]));
    const made = new Map([...(await mine), ...theirs.indexes].map((file) => [file.locale, file]));
    const whole = site;
    return {
      writeSnapshot: (dir, fingerprint) =>
        writeSnapshot(
          dir,
          fingerprint,
          whole,
          messages,
          locales.map((locale) => parts.get(locale)!),
        ),
      indexes: locales.map((locale) => made.get(locale)!),
    };
  } finally {
    await worker.terminate();
  }
}

/**
 * The locales split in two halves of about equal work, largest first, each to the
 * lighter side. A locale's work grows with the characters of its Markdown, and a
 * character of a script written without spaces (Japanese, Chinese, Thai) costs about
 * three times as much, for the dictionary that cuts it into words for the index (at
 * 2,000 pages a locale, Japanese takes 3.1 s to index against 1.1 s for German). The
 * characters are counted in a sample of each locale's files and scaled to its bytes.
 */
function shareOut(localesDir: string, locales: readonly string[]): [string[], string[]] {
  const sides: [{ locales: string[]; work: number }, { locales: string[]; work: number }] = [
    { locales: [], work: 0 },
    { locales: [], work: 0 },
  ];
  const sized = locales.map((locale) => ({ locale, work: estimatedWork(join(localesDir, locale, 'pages')) }));
  for (const { locale, work } of sized.sort((a, b) => b.work - a.work)) {
    const side = sides[0].work <= sides[1].work ? sides[0] : sides[1];
    side.locales.push(locale);
    side.work += work;
  }
  return [sides[0].locales, sides[1].locales];
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
    sampledWork += text.length + 2 * charactersWithoutSpaces(text);
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
    locales.map((locale) => {
      const [file] = makeIndexFiles(site, [locale]);
      return compressAsset(Buffer.from(file!.json)).then((forms) => ({ ...file!, ...forms }));
    }),
  );
}

function markdownFiles(localesDir: string): number {
  return readdirSync(localesDir, { recursive: true }).filter((file) => String(file).endsWith('.md')).length;
}

if (!isMainThread) {
  parentPort!.on('message', async ({ localesDir, locales, defaultLocale, serving }: Job) => {
    let answer: Answer;
    try {
      const site = loadSite(localesDir, locales, defaultLocale, loadMessages(localesDir, locales, defaultLocale), { serving });
      const indexes = indexed(site, serving);
      // The parts are made while the indexes are compressed on the thread pool.
      const parts = serving.map((locale) => snapshotPart(site, locale));
      answer = { parts, indexes: await indexes };
    } catch (error) {
      answer = error instanceof ContentError ? { problems: error.problems } : { error: String((error as Error).stack ?? error) };
    }
    parentPort!.postMessage(answer);
  });
}
