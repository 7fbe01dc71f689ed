import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSite } from '../../../scripts/build-content.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { ContentError } from '../../../src/server/content/errors.ts';
import { loadContent } from '../../../src/server/content/load-content.ts';
import { prepareSite } from '../../../src/server/site/prepare-site.ts';
import { CONTENT_MISTAKES } from '../../helpers/content-mistakes.ts';
import { ROOT, startServerExpectingFailure } from '../../helpers/server.ts';

// The build and the dev server run one content check (load-content.ts): each mistake
// fails both, with the same message. The build's door is its content step (the one
// `npm run build` runs, here in two threads as a large site is); the dev server's is
// the start-up of the server it runs (`npm run dev` starts dist/server/main.js's
// build of .dev/ the same way), in process and as the real program.

const configOf = (dir: string) => loadConfig({ LOCALES_DIR: dir, PORT: '0', DEFAULT_LOCALE: 'en' });

for (const make of CONTENT_MISTAKES) {
  const mistake = make();
  test(`${mistake.name}: the build and the dev server refuse it with the same message`, async () => {
    const { locales, defaultLocale } = configOf(mistake.dir);
    const build = await compileSite(mistake.dir, locales, defaultLocale, { workersFrom: 0, cpus: 2 }).then(
      () => assert.fail('the build accepted it'),
      (error: Error) => error,
    );
    assert.ok(build instanceof ContentError, String(build));
    assert.equal(build.message, mistake.problem);

    const dev = await prepareSite(configOf(mistake.dir)).then(
      () => assert.fail('the dev server started'),
      (error: Error) => error,
    );
    assert.equal(dev.message, build.message);
    assert.throws(() => loadContent(mistake.dir, locales, defaultLocale), { message: build.message });
  });
}

test('`npm run build` fails on a renamed placeholder with the same message, and leaves the last build in place', () => {
  const mistake = CONTENT_MISTAKES[0]!();
  const dist = mkdtempSync(join(tmpdir(), 'polysite-dist-'));
  try {
    writeFileSync(join(dist, 'manifest.json'), '{"kept":true}');
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.ts')], {
      cwd: ROOT,
      env: { ...process.env, LOCALES_DIR: mistake.dir, DEFAULT_LOCALE: 'en', DIST_DIR: dist },
      encoding: 'utf8',
    });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, `build failed: ${mistake.problem}\n`);
    assert.equal(readFileSync(join(dist, 'manifest.json'), 'utf8'), '{"kept":true}');
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

test('the server started as `npm run dev` starts it stops with the same message, for a renamed placeholder', async () => {
  const mistake = CONTENT_MISTAKES[0]!();
  const { code, stderr } = await startServerExpectingFailure({ LOCALES_DIR: mistake.dir, NODE_ENV: 'development', DEFAULT_LOCALE: 'en' });
  assert.equal(code, 1);
  assert.equal(stderr, `polysite: cannot start: ${mistake.problem}\n`);
});

test('every problem of a site is reported at once: a message and a page', () => {
  const rename = CONTENT_MISTAKES[0]!();
  const { locales } = configOf(rename.dir);
  writeFileSync(`${rename.dir}/en/pages/about.md`, '---\ntitle: About\ndescripton: D\n---\n');
  assert.throws(
    () => loadContent(rename.dir, locales, 'en'),
    (error: ContentError) =>
      error.problems.length === 2 && error.problems[0] === rename.problem && /about\.md:3: .*did you mean/.test(error.problems[1]!),
  );
});
