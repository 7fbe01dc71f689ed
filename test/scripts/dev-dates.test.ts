import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLocales, makePage } from '../helpers/content.ts';
import { gitDatesReader } from '../../scripts/dev-dates.ts';

// The dev server's "last updated" dates, from a real git repository made here.

const git = (cwd: string, args: string[], date?: string) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...process.env, ...(date && { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }) },
    encoding: 'utf8',
  });

test('the dev server reads the dates again after a commit, and not at a save that commits nothing', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/about.md': makePage({ title: 'About' }) } });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'first'], '2026-04-01T09:00:00+00:00');
  const dates = gitDatesReader(dir);
  const first = dates();
  assert.equal(first.get('en/pages/about.md'), '2026-04-01T09:00:00Z');
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About us' }));
  assert.equal(dates(), first, 'read again though no commit was made');
  git(dir, ['commit', '-q', '-am', 'second'], '2026-06-12T10:00:00+00:00');
  const second = dates();
  assert.equal(second.get('en/pages/about.md'), '2026-06-12T10:00:00Z');
  assert.equal(second.get('en/pages/index.md'), '2026-04-01T09:00:00Z');
});

test('without a repository the dev server has no dates', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({ title: 'Home' }) } });
  assert.equal(gitDatesReader(dir)().size, 0);
});
