import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localeQueues, plannedSplit, type Sized } from '../../scripts/locale-plan.ts';

const sized = (entries: Record<string, number>): Sized[] => Object.entries(entries).map(([locale, work]) => ({ locale, work }));

/** The largest sum of work a split gives one thread. */
const makespan = (split: string[][], work: Sized[]) =>
  Math.max(...split.map((locales) => locales.reduce((sum, locale) => sum + work.find((entry) => entry.locale === locale)!.work, 0)));

// Largest first to whichever thread is free gives {13.5, 9.9, 7.6} and {10.4, 8.1}: one thread
// works 31 units while the other idles after 18.5.
const FIVE = sized({ en: 7.6, de: 8.1, fr: 9.9, ar: 10.4, ja: 13.5 });

test('five unequal locales on two threads are split so that the busier thread has the least work there can be', () => {
  const split = plannedSplit(FIVE, 2);
  assert.deepEqual(split, [
    ['ja', 'ar'],
    ['fr', 'de', 'en'],
  ]);
  assert.equal(makespan(split, FIVE).toFixed(1), '25.6');
});

test('every locale is planned once, each thread’s locales largest first', () => {
  const work = sized({ a: 5, b: 1, c: 9, d: 3, e: 7, f: 2, g: 8 });
  for (const threads of [1, 2, 3, 4]) {
    const split = plannedSplit(work, threads);
    assert.deepEqual(split.flat().sort(), ['a', 'b', 'c', 'd', 'e', 'f', 'g'], `${threads} threads`);
    for (const locales of split) {
      const works = locales.map((locale) => work.find((entry) => entry.locale === locale)!.work);
      assert.deepEqual(
        works,
        [...works].sort((x, y) => y - x),
      );
    }
    // Never worse than the total spread evenly, rounded up to whole locales' work.
    assert.ok(makespan(split, work) <= Math.ceil(35 / threads) + 9);
  }
  assert.equal(makespan(plannedSplit(work, 2), work), 18);
});

test('more threads than locales: a locale per thread, and no thread planned empty', () => {
  assert.deepEqual(plannedSplit(sized({ en: 1, de: 2 }), 4), [['de'], ['en']]);
});

test('the same locales are planned the same whatever order they come in', () => {
  assert.deepEqual(plannedSplit([...FIVE].reverse(), 2), plannedSplit(FIVE, 2));
});

test('a thread whose planned locales are done takes the smallest waiting in the plan with the most work left', () => {
  const queues = localeQueues(FIVE, 2);
  assert.equal(queues.threads, 2);
  assert.equal(queues.next(0), 'ja');
  assert.equal(queues.next(1), 'fr');
  assert.equal(queues.next(0), 'ar');
  // Thread 0's plan is done while thread 1 still has de and en waiting: it takes en.
  assert.equal(queues.next(0), 'en');
  assert.equal(queues.next(1), 'de');
  assert.equal(queues.next(1), undefined);
  assert.equal(queues.next(0), undefined);
});
