// Each locale's search index for `npm run build`. Indexing is CPU work in one
// thread per locale (about 2 s a locale at 2,000 pages, Japanese the slowest), so
// a large site indexes its locales in worker threads, side by side and while
// esbuild bundles; a small site does it in process, where starting workers
// would cost more than it saves. Both make the same bytes (one buildSearchIndex).
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { buildSearchIndex, type IndexedPage } from '../src/routes/search/engine.ts';
import type { Site } from '../src/server/content/site.ts';
import { type IndexFile, indexedPages, indexUrl, makeIndexFiles } from '../src/server/search-indexes.ts';
import { ask, tsWorker } from './ts-worker.ts';

/** From this many pages (all locales), workers pay for themselves. */
const WORKERS_FROM_PAGES = 2000;

type Job = { locale: string; pages: IndexedPage[] };

/** `workersFrom`: the site size (pages, all locales) from which workers are used; `cpus`: how many there are to use. */
export async function buildIndexFiles(
  site: Site,
  { workersFrom = WORKERS_FROM_PAGES, cpus = availableParallelism() } = {},
): Promise<IndexFile[]> {
  let pages = 0;
  for (const served of site.pages.values()) pages += served.size;
  const threads = Math.min(cpus, site.locales.length);
  if (pages < workersFrom || threads < 2) return makeIndexFiles(site);

  const jobs: Job[] = site.locales.map((locale) => ({ locale, pages: indexedPages(site, locale) }));
  const made = new Map<string, string>();
  await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = tsWorker(import.meta.url);
      try {
        for (let job = jobs.shift(); job; job = jobs.shift()) {
          const { locale } = job;
          made.set(locale, await ask<string>(worker, job));
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return site.locales.map((locale) => {
    const json = made.get(locale)!;
    return { locale, url: indexUrl(locale, json), json };
  });
}

if (!isMainThread) parentPort!.on('message', ({ locale, pages }: Job) => parentPort!.postMessage(buildSearchIndex(locale, pages)));
