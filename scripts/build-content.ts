// The content step of `npm run build`: every page's Markdown in every locale
// compiled, and each locale's search index made from it. For a large site these
// are the build's largest steps, so from WORKERS_FROM_FILES files the locales are
// handed out to worker threads, one locale at a time, as planned so that the threads end
// together (locale-plan.ts): each compiles the locale, indexes it and makes its part of the
// snapshot, and writes them to a staging folder as they are made; only their file
// names and a JSON line per page cross threads, never a page's bytes. A thread holds
// one locale's pages at a time (and the default locale's sources, its fallbacks), and
// the main thread none, so the build's memory is about one locale per thread rather
// than the whole site. Each thread reads the sources of its locale and of the default
// locale and reports their problems; the problems of all are joined. A small site, or a
// rebuild with one locale left, is done in process. With the content cache, a locale none
// of whose inputs changed is not built at all: its staged part and indexes are linked from
// the cache (locale-cache.ts).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import type { CompiledMessages } from '../src/i18n/intl.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { type ContentFile, contentFiles } from '../src/server/content/content-files.ts';
import { loadContent } from '../src/server/content/load-content.ts';
import { contentDates } from '../src/server/content/git-dates.ts';
import type { SiteVersions } from '../src/server/content/versions.ts';
import { type SnapshotPart, type SnapshotSite, stageSnapshotPart, writeSnapshot } from '../src/server/content/snapshot.ts';
import { indexedPages, indexUrl, searchScopes } from '../src/server/site/search-indexes.ts';
import { writeSearchIndex } from '../src/routes/search/index-writer.ts';
import type { IndexedPage } from '../src/routes/search/engine.ts';
import { scopeLocale, scopeVersion } from '../src/routes/search/query.ts';
import { cacheKey, openPageCache } from '../src/server/content/page-cache.ts';
import { indexFiles, keepIndex, restoreIndex } from './index-cache.ts';
import { hasLocale, keepLocale, localeKeys, restoreLocale } from './locale-cache.ts';
import { memoisedTerms, openTermsCache, termsMemo } from './terms-cache.ts';
import { openFrontMatterCache } from './front-matter-cache.ts';
import type { FrontMatterMemo } from '../src/server/content/front-matter.ts';
import { compressedWithin } from './asset-compression.ts';
import { type JobWorker, startWorker } from './ts-worker.ts';
import { estimatedWork, localeQueues } from './locale-plan.ts';
import { saveHighlightCache, setHighlightCache } from '../src/server/content/markdown/highlight-cache.ts';

/** From this many Markdown files (all locales), more threads pay for themselves. */
const WORKERS_FROM_FILES = 2000;

type Job = {
  localesDir: string;
  locales: readonly string[];
  defaultLocale: string;
  locale: string;
  /** Each file's last change (git-dates.ts), read once by the main thread for all. */
  dates: [string, string][];
  /** The page files with no `draft:` in their front matter, as the main thread read them (locale-cache.ts). */
  published: string[];
  /** Where highlighted blocks are kept between builds (highlight-cache.ts), or null. */
  cacheDir: string | null;
  /** Where compiled pages and search indexes are kept between builds (`content`), or null. */
  contentCache: ContentCache | null;
  /** Where the locale's index files and snapshot part are written. */
  stageDir: string;
  /** An index whose gzip form is larger is never downloaded (SEARCH_INDEX_MAX_KB): it gets no browser forms. */
  maxDownloadBytes: number;
};

/**
 * One search index (a locale's, or a locale's for an older docs version: `locale` is its
 * scope, search-indexes.ts), written in the staging folder: its compact form (what the server
 * loads: compact-index.ts) at `compact`, and what a browser downloads, when one may: the
 * file (UTF-8 JSON) at `file`, its brotli and gzip forms beside it (`.br`, `.gz`). An index
 * too large to download has no `file` (null): the server searches it, and `url` is named
 * after its compact form (`npm run export` makes its file: site-search.ts#downloadable).
 */
export type BuiltIndex = {
  locale: string;
  url: string;
  file: string | null;
  compact: string;
  /** Its key in the index cache. */
  key?: string | null;
};
/** The whole site's translations, messages and versions: the same from every locale, sent with the default locale's. */
type Whole = { translations: [string, string[]][]; messages: [string, CompiledMessages][]; versions: SiteVersions };
/** A locale done: `reused` of its `pages` came from the cache; `warnings` as its compile said them. */
type Staged = { part: SnapshotPart; indexes: BuiltIndex[]; reused: number; pages: number; warnings: string[]; whole?: Whole };
type Answer = Staged | { problems: readonly string[] } | { error: string };

/**
 * What the build writes of the content: the snapshot (a writer, so no caller mistakes one
 * thread's pages for the site), each locale's index (staged files: `moveIndex` puts one in
 * place), and `dispose`, which removes what is still staged.
 */
export type CompiledContent = {
  writeSnapshot(dir: string, fingerprint: string): void;
  /** In the order of `locales`. */
  indexes: BuiltIndex[];
  /** How many compiled pages (a fallback counts in each locale serving it) came from the content cache. */
  reusedPages: number;
  /** The locales taken whole from the content cache (locale-cache.ts): none of their inputs changed. */
  reusedLocales: string[];
  dispose(): void;
};

/**
 * The content cache: compiled pages (page-cache.ts) in `dir`/pages, search indexes
 * (index-cache.ts) in `dir`/indexes, every entry keyed with `code` (compiler-code.ts).
 */
export type ContentCache = { dir: string; code: string };

/**
 * `files`: the walk of the content (content-files.ts), when the caller made it already.
 * `coreFree`: called once, as soon as the compile leaves a core of the machine to other
 * work: at once when it runs here, else when the first thread has no locale left. The
 * build bundles from then (build.ts).
 */
export type ContentCompiler = {
  compile(defaultLocale: string, files?: readonly ContentFile[], coreFree?: () => void): Promise<CompiledContent>;
};

/**
 * The compiled site, staged to write as the snapshot, and each locale's search index.
 * `compile` first takes from the content cache every locale none of whose inputs changed
 * (locale-cache.ts: its part and indexes are linked, its pages never loaded), then builds
 * the others: in worker threads when two or more of a large site's locales are left, else
 * here, one locale after the other.
 *
 * How many threads: one per core, up to one per locale left. Each holds the locale it
 * compiles, so a thread more is a locale's pages more in memory; the locales are split
 * among the threads by their estimated work (locale-plan.ts), so the cores stay busy
 * until the last locales.
 */
export function contentCompiler(
  localesDir: string,
  locales: readonly string[],
  {
    workersFrom = WORKERS_FROM_FILES,
    cpus = availableParallelism(),
    cacheDir = null as string | null,
    contentCache = null as ContentCache | null,
    stageIn = tmpdir(),
    maxDownloadBytes = Number.POSITIVE_INFINITY,
  } = {},
): ContentCompiler {
  const threads = hasMarkdownFiles(localesDir, workersFrom) ? cpus : 0;
  // A thread boots in about a second (loading the compilers), so the build starts them now and
  // reads its fingerprint meanwhile: one for each locale the cache has kept nothing of (all
  // of them on a first build). More are started once `compile` knows which locales are left.
  const unkept = contentCache ? locales.filter((locale) => !hasLocale(join(contentCache.dir, 'locales'), localesDir, locale)) : locales;
  const early = unkept.length < 2 ? [] : Array.from({ length: Math.min(threads, unkept.length) }, () => startWorker(import.meta.url));
  return {
    async compile(defaultLocale, files, whenCoreFree = () => {}) {
      const coreFree = once(whenCoreFree);
      mkdirSync(stageIn, { recursive: true });
      const stageDir = mkdtempSync(join(stageIn, '.polysite-content-'));
      try {
        const settings = { localesDir, locales, defaultLocale, cacheDir, contentCache, stageDir, maxDownloadBytes };
        // A site compiled here leaves the other cores free from the start.
        if (threads < 2) coreFree();
        const compiled = await compileIn(settings, threads, early, coreFree, files);
        return { ...compiled, dispose: () => rmSync(stageDir, { recursive: true, force: true }) };
      } catch (error) {
        rmSync(stageDir, { recursive: true, force: true });
        throw error;
      } finally {
        await Promise.all(early.map((worker) => worker.terminate()));
      }
    },
  };
}

/** `contentCompiler` in one call (tests, and a build with nothing to read between). */
export function compileSite(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  options: {
    workersFrom?: number;
    cpus?: number;
    cacheDir?: string | null;
    contentCache?: ContentCache | null;
    stageIn?: string;
    maxDownloadBytes?: number;
  } = {},
): Promise<CompiledContent> {
  return contentCompiler(localesDir, locales, options).compile(defaultLocale);
}

/**
 * Moves a staged index into `distDir`: the file and its compressed forms (when it has them)
 * at `target`, its URL under `client/`, the compact form at `compactTarget`.
 */
export function moveIndex(index: BuiltIndex, target: string, compactTarget: string): void {
  if (index.file) for (const suffix of ['', '.br', '.gz']) move(`${index.file}${suffix}`, `${target}${suffix}`);
  move(index.compact, compactTarget);
}

/** A rename, or a copy where the two folders are on different file systems. */
function move(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(from, to);
    rmSync(from);
  }
}

type Settings = Omit<Job, 'locale' | 'dates' | 'published'>;

/** `threads`: how many worker threads the site may use (0: none); `early`: those already started; `files`: see ContentCompiler. */
async function compileIn(
  settings: Settings,
  threads: number,
  early: readonly JobWorker[],
  coreFree: () => void,
  files?: readonly ContentFile[],
): Promise<Omit<CompiledContent, 'dispose'>> {
  const { localesDir, locales, defaultLocale, contentCache, stageDir, maxDownloadBytes } = settings;
  // One git log for the whole content folder, whatever the threads (git-dates.ts).
  const dates = contentDates(localesDir, (message) => console.warn(`warning: ${message}`));
  // Which of its indexes a browser downloads is part of what a locale's build makes.
  const code = contentCache && `${contentCache.code} ${maxDownloadBytes}`;
  const inputs = contentCache && localeKeys(join(contentCache.dir, 'locales'), localesDir, locales, defaultLocale, code!, dates, files);
  const keys = inputs?.keys;
  const staged: Staged[] = [];
  const left: string[] = [];
  for (const locale of locales) {
    const kept = keys && restoreStaged(contentCache!, localesDir, locale, keys.get(locale)!, stageDir);
    if (kept) staged.push(kept);
    else left.push(locale);
  }
  const reusedLocales = staged.map((entry) => entry.part.locale);
  // Every locale's job runs the one content check (load-content.ts); their problems are joined.
  const problems = new Set<string>();
  const jobDates = [...dates];
  const published = inputs?.published ?? [];
  const done = (locale: string, answer: Answer) => {
    if ('error' in answer) throw new Error(answer.error);
    if ('problems' in answer) for (const problem of answer.problems) problems.add(problem);
    else {
      staged.push(answer);
      if (keys) keepStaged(contentCache!, localesDir, locale, keys.get(locale)!, answer);
    }
  };
  // One locale left is built here: a thread would only add its boot.
  const using = left.length < 2 || threads < 2 ? 0 : Math.min(left.length, threads);
  if (!using) {
    // Here, one locale at a time: a small site, or one locale left to build. The other cores are free.
    coreFree();
    for (const locale of left) done(locale, await stageJob({ ...settings, locale, dates: jobDates, published }));
  } else {
    const queues = localeQueues(estimatedWork(files ?? contentFiles(localesDir), left), using);
    const run = async (worker: JobWorker, thread: number) => {
      try {
        for (let locale = queues.next(thread); locale !== undefined; locale = queues.next(thread))
          done(locale, await worker.ask<Answer>({ ...settings, locale, dates: jobDates, published } satisfies Job));
      } finally {
        coreFree();
        // A worker is ended as soon as no locale is left for it: its heap is freed while the others still work.
        await worker.terminate();
      }
    };
    const workers = [
      ...early.slice(0, using),
      ...Array.from({ length: using - Math.min(using, early.length) }, () => startWorker(import.meta.url)),
    ];
    await Promise.all(workers.map((worker, thread) => run(worker, thread)));
  }
  const whole = staged.find((entry) => entry.whole)?.whole;
  if (problems.size || !whole) throw new ContentError([...problems]);
  const site = { locales, defaultLocale, translations: new Map(whole.translations), versions: whole.versions };
  return { ...joined(site, new Map(whole.messages), staged, locales), reusedLocales };
}

/** `call` made to run once, whoever calls it first. */
function once(call: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    call();
  };
}

/** A locale taken whole from the content cache, its part and indexes staged; null when the cache has not all of it. */
function restoreStaged(cache: ContentCache, localesDir: string, locale: string, key: string, stageDir: string): Staged | null {
  const bodiesFile = join(stageDir, `part-${locale}.bin`);
  const kept = restoreLocale<Whole>(join(cache.dir, 'locales'), localesDir, locale, key, bodiesFile);
  if (!kept) return null;
  const indexes: BuiltIndex[] = [];
  for (const { scope, url, key: indexKey } of kept.indexes) {
    const files = stagedFiles(scope, stageDir);
    const restored = restoreIndex(join(cache.dir, 'indexes'), indexKey, files);
    if (restored?.url !== url) {
      // Nothing linked from the cache may stay where the locale's build writes in place.
      for (const file of [bodiesFile, ...kept.indexes.flatMap(({ scope }) => indexFiles(stagedFiles(scope, stageDir)))])
        rmSync(file, { force: true });
      return null;
    }
    indexes.push({ locale: scope, url, ...files, file: restored.browser ? files.file : null, key: indexKey });
  }
  for (const warning of kept.warnings) console.warn(`warning: ${warning}`);
  return {
    part: { locale, lines: kept.lines, bodies: kept.bodies },
    indexes,
    reused: kept.pages,
    pages: kept.pages,
    warnings: kept.warnings,
    ...(kept.whole && { whole: kept.whole }),
  };
}

/** A locale built without problems, kept whole in the content cache under its key. */
function keepStaged(cache: ContentCache, localesDir: string, locale: string, key: string, staged: Staged): void {
  const { part, indexes, pages, warnings, whole } = staged;
  if (part.bodies instanceof Uint8Array || indexes.some((index) => !index.key)) return;
  keepLocale<Whole>(join(cache.dir, 'locales'), localesDir, locale, key, {
    lines: part.lines,
    bodies: part.bodies,
    indexes: indexes.map((index) => ({ scope: index.locale, url: index.url, key: index.key! })),
    pages,
    warnings,
    ...(whole && { whole }),
  });
}

function joined(
  site: SnapshotSite,
  messages: ReadonlyMap<string, CompiledMessages>,
  staged: readonly Staged[],
  locales: readonly string[],
): Omit<CompiledContent, 'dispose' | 'reusedLocales'> {
  const byLocale = new Map(staged.map((entry) => [entry.part.locale, entry]));
  const inOrder = locales.map((locale) => byLocale.get(locale)!);
  return {
    writeSnapshot: (dir, fingerprint) =>
      writeSnapshot(
        dir,
        fingerprint,
        site,
        messages,
        inOrder.map((entry) => entry.part),
      ),
    indexes: inOrder.flatMap((entry) => entry.indexes),
    reusedPages: staged.reduce((sum, entry) => sum + entry.reused, 0),
  };
}

/**
 * `load` with the content cache's pages for `serving` (none without a cache), saved after
 * the load whether or not it failed: a page that compiled keeps its entry, mistakes and all.
 * After a load that succeeded the pack is compressed on the thread pool (`saved`), while
 * the caller indexes the locale.
 */
function withPageCache<T>(
  cache: ContentCache | null,
  localesDir: string,
  serving: readonly string[],
  load: (pageCache: ReturnType<typeof openPageCache> | null, frontMatter: FrontMatterMemo | null) => T,
): { loaded: T | null; reused: number; saved: Promise<void> } {
  const pageCache = cache && openPageCache(join(cache.dir, 'pages'), localesDir, serving, cache.code);
  const frontMatter = cache && openFrontMatterCache(join(cache.dir, 'front-matter'), localesDir, serving, cache.code);
  let loaded: T;
  try {
    loaded = load(pageCache, frontMatter);
  } catch (error) {
    pageCache?.save();
    throw error;
  } finally {
    frontMatter?.save();
  }
  return { loaded, reused: pageCache?.reused ?? 0, saved: pageCache ? pageCache.saveAsync() : Promise.resolve() };
}

/**
 * One locale compiled, indexed and staged (in a worker thread, or here): its pages loaded
 * (the page cache's where their inputs are unchanged), its snapshot part and indexes
 * written to the staging folder; or the problems of its files and the default locale's.
 */
async function stageJob({
  localesDir,
  locales,
  defaultLocale,
  locale,
  dates,
  published,
  cacheDir,
  contentCache,
  stageDir,
  maxDownloadBytes,
}: Job): Promise<Answer> {
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    console.warn(`warning: ${message}`);
  };
  // The locale's highlighted blocks (highlight-cache.ts): one pack, saved once its pages are compiled.
  setHighlightCache(cacheDir, locale);
  try {
    const withCache = withPageCache(contentCache, localesDir, [locale], (pageCache, frontMatter) => {
      try {
        return loadContent(localesDir, locales, defaultLocale, {
          serving: [locale],
          dates: new Map(dates),
          warn,
          ...(published.length && { published: new Set(published) }),
          ...(pageCache && { pageCache }),
          ...(frontMatter && { frontMatter }),
        });
      } finally {
        saveHighlightCache();
      }
    });
    const { whole, pages, part, scopes } = fromLoaded(withCache.loaded!, locale, defaultLocale, stageDir, contentCache, maxDownloadBytes);
    // The compiled pages (their HTML and Markdown twins) are garbage from here: the indexes
    // need only what each scope indexes of them (its sections' text).
    withCache.loaded = null;
    const staged = await stageIndexes(scopes, stageDir, contentCache, localesDir, maxDownloadBytes);
    await withCache.saved;
    return { part, indexes: staged, reused: withCache.reused, pages, warnings, ...(whole && { whole }) };
  } catch (error) {
    return error instanceof ContentError ? { problems: error.problems } : { error: String((error as Error).stack ?? error) };
  }
}

/**
 * One search scope to index: what it indexes of the pages, and its key in the index cache;
 * or, found there (`restored`: its files already staged), neither.
 */
type Scope = { scope: string; key: string | null } & ({ pages: IndexedPage[] } | { restored: { url: string; browser: boolean } });

/**
 * What needs the locale's compiled pages: how many it serves, its snapshot part, written
 * page by page, and each of its search scopes (the locale's with the latest docs, then one
 * per older docs version), with what it indexes of them, or the index the content cache has
 * of it; with the default locale's, the whole site's translations, messages and versions
 * (the same in every answer: sent with the default locale's).
 */
function fromLoaded(
  { site, messages }: ReturnType<typeof loadContent>,
  locale: string,
  defaultLocale: string,
  stageDir: string,
  cache: ContentCache | null,
  maxDownloadBytes: number,
): { whole: Whole | undefined; pages: number; part: SnapshotPart; scopes: Scope[] } {
  const whole =
    locale === defaultLocale
      ? {
          translations: [...site.translations].map(([slug, translated]): [string, string[]] => [slug, [...translated]]),
          messages: [...messages],
          versions: site.versions,
        }
      : undefined;
  const part = stageSnapshotPart(site, locale, join(stageDir, `part-${locale}.bin`));
  const scopes = searchScopes(site, locale).map((scope): Scope => {
    const pages = indexedPages(site, scopeLocale(scope), scopeVersion(scope));
    const key = cache && cacheKey(cache.code, scope, maxDownloadBytes, pages);
    const restored = cache && key ? restoreIndex(join(cache.dir, 'indexes'), key, stagedFiles(scope, stageDir)) : null;
    return restored ? { scope, key, restored } : { scope, key, pages };
  });
  return { whole, pages: site.pages.get(locale)!.size, part, scopes };
}

/**
 * Each of a locale's scopes indexed and staged in turn (`stageIndex`), each one made kept in
 * the content cache; a scope's pages are let go once it is indexed.
 */
async function stageIndexes(
  scopes: Scope[],
  stageDir: string,
  cache: ContentCache | null,
  localesDir: string,
  maxDownloadBytes: number,
): Promise<BuiltIndex[]> {
  const staged: BuiltIndex[] = [];
  // One memo of texts' terms for all the locale's scopes: a frozen version's pages repeat the docs before them.
  const seen = termsMemo(scopes[0] ? scopeLocale(scopes[0].scope) : '', scopes.length);
  for (let scope = scopes.shift(); scope; scope = scopes.shift()) {
    const { key } = scope;
    if ('restored' in scope) {
      const files = stagedFiles(scope.scope, stageDir);
      const { url, browser } = scope.restored;
      staged.push({ locale: scope.scope, url, ...files, file: browser ? files.file : null, key });
      continue;
    }
    // Each unchanged text's terms from the last build's (terms-cache.ts): only what changed is cut and stemmed.
    const terms = cache && openTermsCache(join(cache.dir, 'terms'), localesDir, scope.scope, scopeLocale(scope.scope), cache.code, seen);
    const written = writeSearchIndex(scopeLocale(scope.scope), scope.pages, terms ? terms.terms : memoisedTerms(seen));
    terms?.save();
    const index = await stageIndex(scope.scope, written, stageDir, maxDownloadBytes);
    if (cache && key) keepIndex(join(cache.dir, 'indexes'), key, index);
    staged.push({ ...index, key });
  }
  return staged;
}

function stagedFiles(scope: string, stageDir: string): { file: string; compact: string } {
  return { file: join(stageDir, `index-${scope}.json`), compact: join(stageDir, `index-${scope}.bin`) };
}

/**
 * The index's compact form, and what a browser downloads (the file, and its brotli and
 * gzip forms, compressed on libuv's thread pool while the compact form is made) unless its
 * gzip form is over `maxDownloadBytes`: a browser never downloads that one (the server
 * searches it), so the file is given up as soon as its gzip is over, and the index is
 * named after its compact form.
 */
async function stageIndex(
  scope: string,
  written: ReturnType<typeof writeSearchIndex>,
  stageDir: string,
  maxDownloadBytes: number,
): Promise<BuiltIndex> {
  const { file, compact } = stagedFiles(scope, stageDir);
  const browsing = compressedWithin(written.json(), maxDownloadBytes);
  browsing.catch(() => {});
  const block = written.compact();
  writeFileSync(compact, block);
  const browser = await browsing;
  if (!browser) return { locale: scope, url: indexUrl(scope, [block]), file: null, compact };
  writeFileSync(file, browser.bytes);
  writeFileSync(`${file}.br`, browser.br);
  writeFileSync(`${file}.gz`, browser.gz);
  return { locale: scope, url: indexUrl(scope, [browser.bytes]), file, compact };
}

/** Whether `dir` holds at least `count` Markdown files: the walk stops once it has found them. */
function hasMarkdownFiles(dir: string, count: number): boolean {
  let found = 0;
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(join(folder, entry.name));
      else if (entry.name.endsWith('.md') && ++found >= count) return true;
    }
  }
  return found >= count;
}

if (!isMainThread) {
  parentPort!.on('message', async (job: Job) => {
    parentPort!.postMessage(await stageJob(job));
  });
}
