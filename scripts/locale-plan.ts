// Which build thread compiles which locale (scripts/build-content.ts). A locale is the unit of
// work, and a site has few of them, of unequal size: handed out largest first to whichever
// thread was free, five locales on two threads left one thread with the last locale alone
// for seconds while the other core idled (the first thread took the largest, the third and
// the fifth). So the locales are planned first: split among the threads so that the thread
// with the most work has as little as can be, by their estimated work. A thread whose
// locales are done (the estimate was high) takes the smallest locale still waiting in the
// plan of the thread with the most work left.
import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { charactersWithoutSpaces } from '../src/i18n/search-text.ts';
import type { ContentFile } from '../src/server/content/content-files.ts';

/** A locale and its estimated work. */
export type Sized = { locale: string; work: number };

/** Past this many assignments tried, the best found so far is taken. */
const MAX_TRIED = 200_000;

/**
 * The locales split among `threads` threads, each thread's list largest first: the split whose
 * largest sum of work is the least (branch and bound from the largest-first greedy split, the
 * locales placed largest first; among equal splits the first found). Deterministic for the
 * same input.
 */
export function plannedSplit(sized: readonly Sized[], threads: number): string[][] {
  const order = [...sized].sort((a, b) => b.work - a.work || (a.locale < b.locale ? -1 : 1));
  const count = Math.max(1, Math.min(threads, order.length));
  // The greedy split (each locale to the thread with the least work so far) bounds the search.
  let best: number[] = [];
  const greedyLoads = new Array<number>(count).fill(0);
  for (const entry of order) {
    const thread = greedyLoads.indexOf(Math.min(...greedyLoads));
    best.push(thread);
    greedyLoads[thread]! += entry.work;
  }
  let bestMax = Math.max(...greedyLoads);
  const loads = new Array<number>(count).fill(0);
  const chosen = new Array<number>(order.length).fill(0);
  // What is left to place after each position: no split beats the total spread evenly.
  const rest = order.map((_, index) => order.slice(index).reduce((sum, entry) => sum + entry.work, 0));
  let tried = 0;
  const place = (index: number, maxSoFar: number): void => {
    if (tried++ > MAX_TRIED) return;
    if (index === order.length) {
      if (maxSoFar < bestMax) {
        bestMax = maxSoFar;
        best = [...chosen];
      }
      return;
    }
    const total = loads.reduce((sum, load) => sum + load, 0) + rest[index]!;
    if (Math.max(maxSoFar, total / count) >= bestMax) return;
    const seen = new Set<number>();
    for (let thread = 0; thread < count; thread++) {
      // Threads with the same load are alike: one of them is tried.
      if (seen.has(loads[thread]!)) continue;
      seen.add(loads[thread]!);
      const load = loads[thread]! + order[index]!.work;
      if (load >= bestMax) continue;
      loads[thread] = load;
      chosen[index] = thread;
      place(index + 1, Math.max(maxSoFar, load));
      loads[thread] = load - order[index]!.work;
    }
  };
  place(0, 0);
  const split = Array.from({ length: count }, () => [] as string[]);
  for (const [index, entry] of order.entries()) split[best[index]!]!.push(entry.locale);
  return split.filter((locales) => locales.length > 0);
}

/**
 * The plan as the threads work through it: `next(thread)` is the thread's next locale, or, its
 * own done, the smallest waiting in the plan with the most work left; undefined when none waits.
 */
export function localeQueues(sized: readonly Sized[], threads: number): { threads: number; next(thread: number): string | undefined } {
  const work = new Map(sized.map((entry) => [entry.locale, entry.work]));
  const queues = plannedSplit(sized, threads);
  const left = (queue: readonly string[]) => queue.reduce((sum, locale) => sum + work.get(locale)!, 0);
  return {
    threads: queues.length,
    next(thread) {
      const own = queues[thread]?.shift();
      if (own !== undefined) return own;
      const fullest = queues.reduce<string[] | undefined>(
        (most, queue) => (queue.length && (!most || left(queue) > left(most)) ? queue : most),
        undefined,
      );
      return fullest?.pop();
    },
  };
}

const SAMPLED_FILES = 50;

/**
 * Each locale's estimated work. It grows with the bytes of its Markdown, and a character of
 * a script written without spaces (Japanese, Chinese, Thai) costs about one byte more, for the
 * dictionary that cuts it into words for the index. The bytes are summed from the walk of the
 * content (content-files.ts), the characters counted in a sample of each locale's files and
 * scaled to its bytes.
 */
export function estimatedWork(files: readonly ContentFile[], locales: readonly string[]): Sized[] {
  return locales.map((locale) => {
    const prefix = `${sep}${locale}${sep}pages${sep}`;
    const pages = files.filter((file) => file.name.startsWith(prefix) && file.name.endsWith('.md'));
    let bytes = 0;
    for (const file of pages) bytes += file.stat.size;
    let sampledBytes = 0;
    let sampledWork = 0;
    const step = Math.max(1, Math.floor(pages.length / SAMPLED_FILES));
    for (let i = 0; i < pages.length; i += step) {
      const text = readFileSync(pages[i]!.path, 'utf8');
      sampledBytes += Buffer.byteLength(text);
      sampledWork += Buffer.byteLength(text) + charactersWithoutSpaces(text);
    }
    return { locale, work: sampledBytes ? (bytes * sampledWork) / sampledBytes : 0 };
  });
}
