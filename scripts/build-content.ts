// The content compile of `npm run build` (every page's Markdown, in every locale).
// It is the largest single-threaded step of building a large site (about 10 s at
// 10,000 pages), so from WORKERS_FROM_FILES files it is split: a worker thread
// compiles half of the locales while this thread compiles the others, and the
// two halves are joined. Each side reads every source and resolves every path
// (cheap), so both report the same content problems; each link is checked by the
// side that compiles its page. A small site compiles in process, as the server does.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { ContentError } from '../src/server/content/errors.ts';
import { sitePaths } from '../src/server/content/paths.ts';
import { loadSite, type Site, type SourcePage } from '../src/server/content/site.ts';
import { loadMessages, type MessageCatalog } from '../src/server/messages.ts';
import { ask, tsWorker } from './ts-worker.ts';

/** From this many Markdown files (all locales), a second thread pays for itself. */
const WORKERS_FROM_FILES = 2000;

type Job = { localesDir: string; locales: readonly string[]; defaultLocale: string; serving: string[] };
/** A compiled page as it crosses threads: its HTML as text, not a function. */
type Compiled = Omit<SourcePage, 'html'> & { html: string };
type Answer = { pages: [string, Compiled[]][] } | { problems: readonly string[] } | { error: string };

export async function compileSite(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  messages: MessageCatalog,
  { workersFrom = WORKERS_FROM_FILES, cpus = availableParallelism() } = {},
): Promise<Site> {
  if (markdownFiles(localesDir) < workersFrom || cpus < 2 || locales.length < 2) {
    return loadSite(localesDir, locales, defaultLocale, messages);
  }
  // Every other locale, so each side gets a fair share of large and small ones.
  const there = locales.filter((_, i) => i % 2 === 1);
  const here = locales.filter((_, i) => i % 2 === 0);
  const worker = tsWorker(import.meta.url);
  try {
    const answer = ask<Answer>(worker, { localesDir, locales, defaultLocale, serving: there } satisfies Job);
    const problems = new Set<string>();
    let site: Site | null = null;
    try {
      site = loadSite(localesDir, locales, defaultLocale, messages, { serving: here });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
    const theirs = await answer;
    if ('error' in theirs) throw new Error(theirs.error);
    if ('problems' in theirs) for (const problem of theirs.problems) problems.add(problem);
    if (problems.size || !site || !('pages' in theirs)) throw new ContentError([...problems]);
    const pages = new Map(site.pages) as Map<string, ReadonlyMap<string, SourcePage>>;
    for (const [locale, compiled] of theirs.pages) {
      pages.set(locale, new Map(compiled.map(({ html, ...page }) => [page.slug, { ...page, html: () => html }])));
    }
    return { ...site, pages, paths: sitePaths(pages, defaultLocale) };
  } finally {
    await worker.terminate();
  }
}

function markdownFiles(localesDir: string): number {
  return readdirSync(localesDir, { recursive: true }).filter((file) => String(file).endsWith('.md')).length;
}

if (!isMainThread) {
  parentPort!.on('message', ({ localesDir, locales, defaultLocale, serving }: Job) => {
    let answer: Answer;
    try {
      const site = loadSite(localesDir, locales, defaultLocale, loadMessages(localesDir, locales, defaultLocale), { serving });
      answer = {
        pages: serving.map((locale) => [locale, [...site.pages.get(locale)!.values()].map((page) => ({ ...page, html: page.html() }))]),
      };
    } catch (error) {
      answer = error instanceof ContentError ? { problems: error.problems } : { error: String((error as Error).stack ?? error) };
    }
    parentPort!.postMessage(answer);
  });
}
