import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadMessages } from '../../src/server/content/messages.ts';
import { loadSite } from '../../src/server/content/site.ts';
import { translationRows } from '../../src/server/content/translation-status.ts';
import { makePage } from '../helpers/content.ts';
import { ROOT } from '../helpers/server.ts';
import { runTranslations } from '../helpers/translations.ts';
import { makeVersionedRoot } from '../helpers/versions.ts';

/** `npm run version -- ...args` as a user runs it, on the content folder `localesDir`. */
function runVersion(localesDir: string, ...args: string[]) {
  const result = spawnSync('npm', ['run', '--silent', 'version', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOCALES_DIR: localesDir, DEFAULT_LOCALE: 'en' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const load = (localesDir: string) =>
  loadSite(localesDir, ['en', 'de'], 'en', loadMessages(localesDir, ['en', 'de'], 'en'), { warn: () => {} });

/** A small unversioned site: docs in en and de (de's install translated and recorded), a blog post in en. */
function smallSite() {
  const { root, localesDir } = makeVersionedRoot(
    {
      en: {
        'pages/index.md': makePage({ title: 'Home' }),
        'pages/blog/hello.md': makePage({ title: 'Hello' }),
        'pages/docs/index.md': makePage({ title: 'Docs' }),
        'pages/docs/install.md': makePage({ title: 'Install' }, 'Run the installer.\n'),
      },
      de: {
        'pages/docs/install.md': makePage({ title: 'Installieren', slug: 'installieren' }, 'Den Installer starten.\n'),
      },
    },
    {},
  );
  const done = runTranslations(localesDir, '--done', 'de', 'docs/install');
  assert.equal(done.code, 0, done.err);
  return { versionsDir: join(root, 'versions'), localesDir };
}

test('npm run version snapshots every locale’s docs with their translation records, lists the version first, and the content check passes', () => {
  const { versionsDir, localesDir } = smallSite();
  const first = runVersion(localesDir, '1.0', '--label', '1.x');
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, /^version 1\.0: 3 pages of 2 locales in /);
  const second = runVersion(localesDir, '2.0');
  assert.equal(second.code, 0, second.err);

  // The files as they were, per locale; no blog or home page.
  for (const file of ['en/pages/docs/index.md', 'en/pages/docs/install.md', 'de/pages/docs/install.md']) {
    assert.equal(readFileSync(join(versionsDir, '2.0', file), 'utf8'), readFileSync(join(localesDir, file), 'utf8'), file);
  }
  assert.equal(existsSync(join(versionsDir, '2.0', 'en', 'pages', 'blog')), false);
  assert.equal(existsSync(join(versionsDir, '2.0', 'en', 'pages', 'index.md')), false);
  // de's record of its docs, as it was: the frozen translation is up to date against the frozen source.
  assert.deepEqual(
    JSON.parse(readFileSync(join(versionsDir, '2.0', 'de', 'translations.json'), 'utf8')),
    JSON.parse(readFileSync(join(localesDir, 'de', 'translations.json'), 'utf8')),
  );
  // Newest first, the current docs the next, unreleased version.
  const list = JSON.parse(readFileSync(join(versionsDir, 'versions.json'), 'utf8'));
  assert.deepEqual(list, { current: { label: 'next', released: false }, versions: [{ name: '2.0' }, { name: '1.0', label: '1.x' }] });

  // The current source moves on: its de translation turns outdated, the frozen ones do not.
  writeFileSync(join(localesDir, 'en/pages/docs/install.md'), makePage({ title: 'Install' }, 'Run the new installer.\n'));
  const site = load(localesDir);
  assert.equal(site.pages.get('de')!.get('docs/install')!.title, 'Installieren', 'the latest release, 2.0, at today’s path');
  assert.equal(site.paths.pathOf('de', 'docs/1.0/install'), '/de/docs/1.0/installieren');
  const status = (key: string) => translationRows(site).find((row) => row.key === key && row.locale === 'de')?.status;
  assert.equal(status('docs/next/install'), 'outdated');
  assert.equal(status('docs/install'), 'up-to-date');
  assert.equal(status('docs/1.0/install'), 'up-to-date');
});

test('npm run version refuses a version that exists already, and a name that is no URL segment', () => {
  const { localesDir } = smallSite();
  assert.equal(runVersion(localesDir, '1.0').code, 0);
  const again = runVersion(localesDir, '1.0');
  assert.equal(again.code, 1);
  assert.match(again.err, /the version "1\.0" exists already/);
  const bad = runVersion(localesDir, 'a/b');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /"a\/b" cannot name a version/);
});
