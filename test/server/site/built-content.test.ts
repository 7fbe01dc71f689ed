import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSite } from '../../../scripts/build-content.ts';
import { contentFingerprint, SNAPSHOT_FILE } from '../../../src/server/content/snapshot.ts';
import { serveApp } from '../../helpers/app.ts';
import { get } from '../../helpers/http.ts';
import { makePage } from '../../helpers/content.ts';
import { makeVersionedRoot, versionsJson } from '../../helpers/versions.ts';

/** A site whose docs have an older version, 1.0, with a page three folders down. */
function versionedSite() {
  return makeVersionedRoot(
    {
      en: {
        'pages/index.md': makePage({ title: 'Home' }),
        'pages/docs/index.md': makePage({ title: 'Docs' }),
        'pages/docs/guide/deep/a.md': makePage({ title: 'A now' }),
      },
    },
    {
      'versions.json': versionsJson({ label: '2.0', released: true }, [{ name: '1.0', label: '1.x' }]),
      '1.0/en/pages/docs/index.md': makePage({ title: 'Docs' }),
      '1.0/en/pages/docs/guide/deep/a.md': makePage({ title: 'A then' }),
    },
  );
}

/** The build of `localesDir`, with the old page's title marked (the same bytes) so a test can tell the build's from a fresh compile. */
async function builtMarked(localesDir: string) {
  // Taken as the build takes it, before anything changes.
  const fingerprint = contentFingerprint(localesDir, ['en'], 'en');
  const compiled = await compileSite(localesDir, ['en'], 'en');
  return (dist: string) => {
    compiled.writeSnapshot(dist, fingerprint);
    const file = join(dist, SNAPSHOT_FILE);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes('"A then"'));
    writeFileSync(file, text.replace('"A then"', '"A THEN"'));
  };
}

const titleOf = async (url: string, path: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec((await get(url, path)).body)?.[1];

test("a built versioned site starts from its snapshot, and not once a version's frozen page changed after the build", async () => {
  const { root, localesDir } = versionedSite();
  const build = await builtMarked(localesDir);
  const served = await serveApp({ LOCALES_DIR: localesDir, DEFAULT_LOCALE: 'en' }, {}, build);
  try {
    assert.equal(await titleOf(served.url, '/en/docs/1.0/guide/deep/a'), 'A THEN', 'the build is what is served');
    assert.equal(await titleOf(served.url, '/en/docs/guide/deep/a'), 'A now');
  } finally {
    served.close();
  }
  // Edited in place (the same size), with only its time to tell: the source is compiled again.
  const file = join(root, 'versions/1.0/en/pages/docs/guide/deep/a.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('A then', 'A than'));
  utimesSync(file, new Date(2030, 0, 1), new Date(2030, 0, 1));
  const edited = await serveApp({ LOCALES_DIR: localesDir, DEFAULT_LOCALE: 'en' }, {}, build);
  try {
    assert.equal(await titleOf(edited.url, '/en/docs/1.0/guide/deep/a'), 'A than');
  } finally {
    edited.close();
  }
});

test('a built site is not served from its snapshot once a page was added under a folder', async () => {
  const { localesDir } = versionedSite();
  const build = await builtMarked(localesDir);
  appendFileSync(join(localesDir, 'en/pages/docs/guide/deep/b.md'), makePage({ title: 'B' }));
  const app = await serveApp({ LOCALES_DIR: localesDir, DEFAULT_LOCALE: 'en' }, {}, build);
  try {
    assert.equal(await titleOf(app.url, '/en/docs/1.0/guide/deep/a'), 'A then');
    assert.equal(await titleOf(app.url, '/en/docs/guide/deep/b'), 'B');
  } finally {
    app.close();
  }
});
