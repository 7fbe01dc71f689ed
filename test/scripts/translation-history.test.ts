import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeLocales, makePage } from '../helpers/content.ts';
import { runTranslations } from '../helpers/translations.ts';

const DAY = 86_400;

const run = runTranslations;

/** A temporary git repository around a locales folder, committing at chosen times (seconds since the epoch). */
function repository(tree: Parameters<typeof makeLocales>[0]) {
  const dir = makeLocales(tree);
  const git = (args: string[], time?: number) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', ...args], {
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, ...(time !== undefined && { GIT_AUTHOR_DATE: `@${time} +0000`, GIT_COMMITTER_DATE: `@${time} +0000` }) },
    });
  git(['init', '-q']);
  const commit = (time: number, message: string) => {
    git(['add', '-A']);
    git(['commit', '-q', '-m', message], time);
  };
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  return { dir, commit, write };
}

const now = Math.floor(Date.now() / 1000);

test('with git, an outdated page says how many commits and days it is behind, and what changed', () => {
  const repo = repository({
    en: { 'pages/index.md': makePage({ title: 'Home' }, 'One.\n') },
    de: { 'pages/index.md': makePage({ title: 'Start' }, 'Eins.\n') },
  });
  repo.commit(now - 10 * DAY, 'site');
  assert.equal(run(repo.dir, '--done', 'de', '').code, 0);
  repo.commit(now - 9 * DAY, 'de recorded');
  repo.write('en/pages/index.md', makePage({ title: 'Home' }, 'One.\nTwo.\n'));
  repo.commit(now - 5 * DAY, 'en: two');
  repo.write('en/pages/index.md', makePage({ title: 'Home' }, 'One.\nTwo.\nThree.\n'));
  repo.commit(now - 2 * DAY, 'en: three');

  const report = run(repo.dir);
  assert.match(report.out, /^ {2}outdated {2}\(home\) \(2 commits, 5 days behind; 1 file changed, 2 insertions\(\+\)\)$/m);
  const page = JSON.parse(run(repo.dir, '--json').out).locales[0].pages[0];
  assert.deepEqual(page.behind, { commits: 2, days: 5, diffstat: '1 file changed, 2 insertions(+)' });
});

test('an outdated page whose source was changed and not committed says so, not "0 commits, 0 days behind"', () => {
  const repo = repository({
    en: { 'pages/index.md': makePage({ title: 'Home' }, 'One.\n') },
    de: { 'pages/index.md': makePage({ title: 'Start' }, 'Eins.\n') },
  });
  assert.equal(run(repo.dir, '--done', 'de', '').code, 0);
  repo.commit(now - 3 * DAY, 'site, de recorded');
  repo.write('en/pages/index.md', makePage({ title: 'Home' }, 'One.\nTwo.\n'));

  const report = run(repo.dir);
  assert.match(
    report.out,
    /^ {2}outdated {2}\(home\) \(changed since it was recorded, not committed yet; 1 file changed, 1 insertion\(\+\)\)$/m,
  );
  assert.doesNotMatch(report.out, /0 commits/);
});

test('--seed-from-git records each translation as made from the source of its last commit; no history stays unknown', () => {
  const repo = repository({
    en: { 'pages/index.md': makePage({ title: 'Home' }, 'One.\n'), 'pages/about.md': makePage({ title: 'About' }) },
    de: { 'pages/index.md': makePage({ title: 'Start' }, 'Eins.\n'), 'pages/about.md': makePage({ title: 'Über' }) },
    fr: {},
  });
  repo.commit(now - 10 * DAY, 'site');
  repo.write('en/pages/index.md', makePage({ title: 'Home' }, 'One. Two.\n'));
  repo.commit(now - 5 * DAY, 'en changed after de');
  repo.write('fr/pages/index.md', makePage({ title: 'Accueil' }, 'Un. Deux.\n'));
  repo.commit(now - 3 * DAY, 'fr translated after');
  repo.write('fr/pages/about.md', makePage({ title: 'À propos' })); // not committed: no history

  assert.equal(run(repo.dir, '--seed-from-git').code, 0);
  const statuses = JSON.parse(run(repo.dir, '--json').out).locales.map(
    (locale: { locale: string; pages: { key: string; status: string }[] }) =>
      locale.pages.map((page) => `${locale.locale} ${page.key || '(home)'} ${page.status}`),
  );
  assert.deepEqual(statuses.flat(), ['de (home) outdated', 'de about up-to-date', 'fr (home) up-to-date', 'fr about unknown']);
});

test('without git, there is no detail and --seed-from-git says why', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage() }, de: { 'pages/index.md': makePage() } });
  const seeded = run(dir, '--seed-from-git');
  assert.equal(seeded.code, 2);
  assert.match(seeded.err, /--seed-from-git needs git history/);
});
