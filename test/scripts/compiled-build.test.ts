import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { compiledBuild, compiledBuildDir } from '../../scripts/compiled-build.mjs';
import { ROOT } from '../helpers/server.ts';

// `npm run build` runs its own code compiled to JavaScript (scripts/compiled-build.mjs),
// kept between builds: it must build what the TypeScript build builds, byte for byte.

/** `npm run build` as a user runs it, with its caches and output in folders of their own. */
function npmRunBuild(env: Record<string, string>, ...args: string[]) {
  const { POLYSITE_CACHE_DIR: _cache, DIST_DIR: _dist, POLYSITE_NO_CACHE: _off, ...inherited } = process.env;
  const result = spawnSync('npm', ['run', '--silent', 'build', '--', ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
}

/** Every file under `dir` with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => [relative(dir, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name))]),
  );
}

test('npm run build runs compiled, replaces its last output whole, and writes the same files as the TypeScript build (--no-cache runs under tsx)', (t) => {
  const cache = mkdtempSync(join(tmpdir(), 'polysite-compiled-cache-'));
  const beside = mkdtempSync(join(tmpdir(), 'polysite-compiled-dist-'));
  const compiled = join(beside, 'dist');
  // At the same depth: the server's source maps name the sources relative to the output folder.
  const typescript = join(mkdtempSync(join(tmpdir(), 'polysite-typescript-dist-')), 'dist');
  t.after(() => {
    for (const dir of [cache, beside, dirname(typescript)]) rmSync(dir, { recursive: true, force: true });
  });
  npmRunBuild({ POLYSITE_CACHE_DIR: cache, DIST_DIR: compiled });
  assert.ok(statSync(join(compiledBuildDir(cache), 'build.mjs')).isFile(), 'the compiled build is kept in the cache folder');
  // Built again over the last output, beside one a stopped build left aside: both are gone.
  mkdirSync(join(beside, '.polysite-old-dist-1', 'client'), { recursive: true });
  npmRunBuild({ POLYSITE_CACHE_DIR: cache, DIST_DIR: compiled });
  assert.deepEqual(readdirSync(beside), ['dist']);
  npmRunBuild({ POLYSITE_CACHE_DIR: cache, DIST_DIR: typescript }, '--no-cache');
  const made = tree(compiled);
  const expected = tree(typescript);
  assert.deepEqual([...made.keys()].sort(), [...expected.keys()].sort());
  for (const [file, bytes] of expected) assert.ok(made.get(file)!.equals(bytes), `${file} is the same`);
});

test('the compiled build is kept while the files it was compiled from are unchanged', async (t) => {
  const cache = mkdtempSync(join(tmpdir(), 'polysite-compiled-cache-'));
  t.after(() => rmSync(cache, { recursive: true, force: true }));
  const first = await compiledBuild(cache);
  const memo = join(compiledBuildDir(cache), 'memo.json');
  const kept = JSON.parse(readFileSync(memo, 'utf8')) as { stamps: [string, string][] };
  assert.ok(
    kept.stamps.some(([path]) => path === 'scripts/build.ts'),
    'the build script is stamped',
  );
  assert.ok(
    kept.stamps.some(([path]) => path === 'scripts/build-content.ts'),
    'the content compiler is stamped',
  );
  const { mtimeMs, ino } = statSync(first.script);
  const second = await compiledBuild(cache);
  assert.deepEqual(second, first);
  assert.deepEqual([statSync(second.script).mtimeMs, statSync(second.script).ino], [mtimeMs, ino], 'not compiled again');
  // Each worker module's compiled entry is named by its source's URL.
  assert.deepEqual(Object.keys(first.workers), [new URL('../../scripts/build-content.ts', import.meta.url).href]);
});
