import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildIndexFiles } from '../../scripts/build-search.ts';
import { ROOT_DIR } from '../../src/server/config.ts';
import { loadSite } from '../../src/server/content/site.ts';
import { loadMessages } from '../../src/server/messages.ts';
import { makeIndexFiles } from '../../src/server/search-indexes.ts';
import { join } from 'node:path';

// The build indexes a large site's locales in worker threads: the files must be the
// ones the server would make in process (same bytes, same content-hashed names).

test('indexes made in worker threads are byte for byte the in-process ones, for every locale', async () => {
  const locales = ['en', 'de', 'fr', 'ja', 'ar'];
  const localesDir = join(ROOT_DIR, 'locales');
  const site = loadSite(localesDir, locales, 'en', loadMessages(localesDir, locales, 'en'));
  // From 0 pages and with two CPUs said to be there: the default site goes through two workers, on any machine.
  const parallel = await buildIndexFiles(site, { workersFrom: 0, cpus: 2 });
  assert.deepEqual(parallel, makeIndexFiles(site));
  assert.deepEqual(
    parallel.map((file) => file.locale),
    locales,
  );
});
