import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { type Bundles, keepBundles, restoreBundles } from '../../scripts/bundle-cache.ts';

// The build writes the last build's bundles again, without running esbuild, while nothing
// they were made from changed (scripts/bundle-cache.ts). What it must never do is write a
// stale bundle: each test bundles a small project for real, keeps it, changes one thing and
// checks that the bundles are made again.

/** A project of two modules in a folder of its own. */
function makeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'polysite-bundles-'));
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), "import { greet } from './lib/greet.ts';\nconsole.log(greet('you'));\n");
  writeFileSync(join(root, 'src', 'lib', 'greet.ts'), 'export const greet = (name: string) => "hello " + name;\n');
  return root;
}

/**
 * When a bundling that found the project's files settled began: a minute from now. (A file's
 * change time is when it was written, which a test cannot set back; the cache does not keep
 * bundles of files changed just before or while they were made.)
 */
const settledStart = () => Date.now() + 60_000;

async function bundled(root: string, dist: string): Promise<Bundles> {
  const result = await esbuild.build({
    entryPoints: { main: 'src/main.ts' },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    outdir: join(dist, 'client'),
    entryNames: '[name]-[hash]',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return { client: { metafile: result.metafile }, chooser: null, files: result.outputFiles, inputs: Object.keys(result.metafile.inputs) };
}

/** Bundles `root`, keeps it, and returns what it kept and the cache's folder. */
async function kept(root: string, dist = join(root, 'dist')) {
  const dir = join(mkdtempSync(join(tmpdir(), 'polysite-bundle-cache-')), 'bundles');
  const bundles = await bundled(root, dist);
  keepBundles(dir, dist, bundles, settledStart(), root);
  return { dir, dist, bundles };
}

const filesOf = (bundles: Bundles) => bundles.files.map(({ path, contents }) => [path, Buffer.from(contents).toString()]);

test('with nothing changed, the kept bundles come back: the same files at the same paths, and the same metafile', async () => {
  const root = makeProject();
  const { dir, dist, bundles } = await kept(root);
  const restored = restoreBundles(dir, dist, root);
  assert.ok(restored);
  assert.deepEqual(filesOf(restored), filesOf(bundles));
  assert.deepEqual(restored.client.metafile, bundles.client.metafile);
  assert.equal(restored.chooser, null);
});

test('an edited input is bundled again', async () => {
  const root = makeProject();
  const { dir, dist } = await kept(root);
  writeFileSync(join(root, 'src', 'lib', 'greet.ts'), 'export const greet = (name: string) => "hi " + name;\n');
  assert.equal(restoreBundles(dir, dist, root), null);
  // And what is made then has the change.
  assert.match(filesOf(await bundled(root, dist))[0]![1]!, /hi /);
});

test('a file added beside an input (a new import target) is bundled again', async () => {
  const root = makeProject();
  const { dir, dist } = await kept(root);
  writeFileSync(join(root, 'src', 'lib', 'other.ts'), 'export const other = 1;\n');
  assert.equal(restoreBundles(dir, dist, root), null);
});

test('another output folder is bundled again (the metafile paths are relative to it)', async () => {
  const root = makeProject();
  const { dir } = await kept(root);
  assert.equal(restoreBundles(dir, join(root, 'elsewhere'), root), null);
});

test('an input changed after the bundling began is not kept', async () => {
  const root = makeProject();
  const dist = join(root, 'dist');
  const dir = join(mkdtempSync(join(tmpdir(), 'polysite-bundle-cache-')), 'bundles');
  const startedAt = Date.now();
  const bundles = await bundled(root, dist);
  // Saved while esbuild was reading: its new stamp must not vouch for the old bytes.
  writeFileSync(join(root, 'src', 'lib', 'greet.ts'), 'export const greet = (name: string) => "hey " + name;\n');
  keepBundles(dir, dist, bundles, startedAt, root);
  assert.equal(restoreBundles(dir, dist, root), null);
});

test('a kept file cut short is not used', async () => {
  const root = makeProject();
  const { dir, dist } = await kept(root);
  const file = join(dir, 'files', '0');
  writeFileSync(file, readFileSync(file).subarray(0, 10));
  assert.equal(restoreBundles(dir, dist, root), null);
});

test('a second build keeps its own bundles in place of the first', async () => {
  const root = makeProject();
  const { dir, dist } = await kept(root);
  writeFileSync(join(root, 'src', 'main.ts'), "import { greet } from './lib/greet.ts';\nconsole.log(greet('them'));\n");
  assert.equal(restoreBundles(dir, dist, root), null);
  const second = await bundled(root, dist);
  keepBundles(dir, dist, second, settledStart(), root);
  assert.deepEqual(filesOf(restoreBundles(dir, dist, root)!), filesOf(second));
});

test('an install of packages (npm rewrites node_modules/.package-lock.json) is bundled again', async () => {
  const root = makeProject();
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'dep', 'package.json'), '{"name":"dep","version":"1.0.0","main":"index.js"}');
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'export const dep = 1;\n');
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{"version":1}');
  writeFileSync(join(root, 'src', 'main.ts'), "import { dep } from 'dep';\nconsole.log(dep);\n");
  const { dir, dist, bundles } = await kept(root);
  assert.ok(bundles.inputs.includes('node_modules/dep/index.js'));
  assert.ok(restoreBundles(dir, dist, root));
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{"version":2}');
  assert.equal(restoreBundles(dir, dist, root), null);
});
