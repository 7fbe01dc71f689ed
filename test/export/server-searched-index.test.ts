import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactIndex } from '../../src/routes/search/compact-index.ts';
import { parseIndexFile } from '../../src/routes/search/engine.ts';
import { compactIndexPath, indexUrl } from '../../src/server/site/search-indexes.ts';
import { ROOT, startServer } from '../helpers/server.ts';
import { removeExport, runExport, type ExportRun } from '../helpers/static-host.ts';

/**
 * The default site built with SEARCH_INDEX_MAX_KB=0, so that every search index is one a
 * browser never downloads, beside the default build (dist/, where every index is small).
 */
let dist: string;
let run: ExportRun;
const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { build: string; search: Record<string, string> };

before(async () => {
  dist = mkdtempSync(join(tmpdir(), 'polysite-server-searched-'));
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.ts')], {
    cwd: ROOT,
    env: { ...process.env, DIST_DIR: dist, SEARCH_INDEX_MAX_KB: '0', POLYSITE_NO_CACHE: '1' },
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, built.stderr);
  run = await runExport({ DIST_DIR: dist });
  assert.equal(run.code, 0, run.stderr);
});
after(() => {
  if (run) removeExport(run.out);
  rmSync(dist, { recursive: true, force: true });
});

test('an index too large to download gets no browser forms: the server searches its compact form, the same bytes, with the same answers', async () => {
  const serverOnly = manifestOf(dist).search;
  const downloadable = manifestOf('dist').search;
  assert.deepEqual(Object.keys(serverOnly), Object.keys(downloadable));
  for (const [scope, url] of Object.entries(serverOnly)) {
    for (const suffix of ['', '.br', '.gz']) assert.equal(existsSync(join(dist, 'client', `${url}${suffix}`)), false, `${scope}${suffix}`);
    assert.ok(
      readFileSync(compactIndexPath(dist, url)).equals(readFileSync(compactIndexPath('dist', downloadable[scope]!))),
      `${scope}: the compact form`,
    );
  }
  const servers = await Promise.all([startServer({ DIST_DIR: dist }), startServer({ SEARCH_INDEX_MAX_KB: '0' })]);
  try {
    for (const path of ['/de/search?q=installation', '/ja/search?q=%E6%A4%9C%E7%B4%A2', '/ar/search?q=docs&v=0.1']) {
      const [a, b] = await Promise.all(servers.map(async (server) => (await fetch(server.url + path)).text()));
      assert.equal(a, b, path);
      assert.match(a!, /<mark>/, path);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
});

test("npm run export writes such an index's file as it runs, named after its bytes: it loads as the index a build that wrote the file gives", () => {
  const { build, search } = manifestOf('dist');
  const loaded = (bytes: Buffer) => Buffer.from(compactIndex(parseIndexFile(bytes.toString())));
  const checked = new Set<string>();
  // A latest page names each locale's latest index; an older version's page, that version's.
  for (const page of ['de/docs', 'de/docs/0.1']) {
    const named = JSON.parse(readFileSync(join(run.out, '_data', build, `${page}.json`), 'utf8')).search as Record<string, string>;
    for (const [scope, url] of Object.entries(named)) {
      const exported = readFileSync(join(run.out, url));
      assert.equal(url, indexUrl(scope, [exported]), `${scope}: named after its bytes`);
      assert.ok(loaded(exported).equals(loaded(readFileSync(join('dist', 'client', search[scope]!)))), scope);
      checked.add(scope);
    }
  }
  assert.deepEqual([...checked].sort(), Object.keys(search).sort());
});
