import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/server.ts';

/** The cache folders `npm run build` uses, as a process started with `env` sees them. */
function cacheFolders(env: Record<string, string>): string[] {
  const script = `
    const { CONTENT_CACHE_DIR, HIGHLIGHT_CACHE_DIR } = await import('./scripts/build.ts');
    const { VARIANT_CACHE_DIR } = await import('./scripts/build-images.ts');
    console.log(JSON.stringify([CONTENT_CACHE_DIR, HIGHLIGHT_CACHE_DIR, VARIANT_CACHE_DIR]));`;
  const { POLYSITE_CACHE_DIR: _unset, ...inherited } = process.env;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as string[];
}

test('the build keeps its caches under node_modules/.cache unless POLYSITE_CACHE_DIR names a folder', () => {
  const cache = join(ROOT, 'node_modules', '.cache');
  assert.deepEqual(cacheFolders({}), [
    join(cache, 'polysite', 'content'),
    join(cache, 'polysite', 'highlight'),
    join(cache, 'polysite-images'),
  ]);
  // A relative folder is taken from the working folder.
  const elsewhere = join(ROOT, 'elsewhere', 'caches');
  assert.deepEqual(cacheFolders({ POLYSITE_CACHE_DIR: join('elsewhere', 'caches') }), [
    join(elsewhere, 'polysite', 'content'),
    join(elsewhere, 'polysite', 'highlight'),
    join(elsewhere, 'polysite-images'),
  ]);
});
