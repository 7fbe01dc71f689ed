import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLocales, makePage, MESSAGES, shown } from '../helpers/content.ts';
import { runTranslations } from '../helpers/translations.ts';
import { formatReport, type LocaleReport, SUMMARY_PAGES } from '../../scripts/translation-report.ts';

const run = runTranslations;

/** The fixture's messages in another language: different text, same placeholders. */
const TRANSLATED = Object.fromEntries(Object.entries(MESSAGES).map(([key, value]) => [key, `${value} ·`]));

/**
 * en (default) with a home, about and routing page; de translates all three; fr
 * translates home only, keeps one message untranslated on purpose, lacks one and adds one.
 */
function fixture() {
  return makeLocales({
    en: {
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/about.md': makePage({ title: 'About' }),
      'pages/routing.md': makePage({ title: 'Routing' }, 'Pages live under a locale.\n'),
      'messages.json': { ...MESSAGES, 'nav.blog': 'Blog', 'nav.docs': 'Docs' },
    },
    de: {
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/about.md': makePage({ title: 'Über uns' }),
      'pages/routing.md': makePage({ title: 'Routing' }, 'Seiten liegen unter einer Sprache.\n'),
      'messages.json': { $meta: { sameAsDefault: ['nav.blog'] }, ...TRANSLATED, 'nav.blog': 'Blog', 'nav.docs': 'Doku' },
    },
    fr: {
      'pages/index.md': makePage({ title: 'Accueil' }),
      'messages.json': { ...TRANSLATED, 'nav.blog': 'Blog', 'nav.extra': 'En trop' },
    },
  });
}

test('the report says per locale what is up to date, outdated, missing and unknown, and which messages need work', () => {
  const dir = fixture();
  assert.equal(run(dir, '--done', 'de', '', 'routing').code, 0);
  assert.equal(run(dir, '--done', 'fr', '--all').code, 0);
  const routing = join(dir, 'en/pages/routing.md');
  writeFileSync(routing, readFileSync(routing, 'utf8').replace('locale.', 'locale. A new sentence.'));

  const { code, out } = run(dir);
  assert.equal(code, 0);
  assert.equal(
    out,
    [
      'de: 3 pages: 1 up to date, 1 outdated, 0 missing, 1 unknown',
      '  unknown   about',
      '  outdated  routing',
      '  messages: 0 missing; 0 extra',
      'fr: 3 pages: 1 up to date, 0 outdated, 2 missing, 0 unknown',
      '  missing   about',
      '  missing   routing',
      '  messages: 1 missing: nav.docs; 1 extra: nav.extra',
      '  same as en (probably untranslated): nav.blog',
      '',
    ].join('\n'),
  );

  const json = JSON.parse(run(dir, '--json').out);
  assert.deepEqual(json.locales[0].pages, [
    { key: '', status: 'up-to-date', path: '/de', original: '/en' },
    { key: 'about', status: 'unknown', path: '/de/about', original: '/en/about' },
    { key: 'routing', status: 'outdated', path: '/de/routing', original: '/en/routing' },
  ]);
  assert.deepEqual(json.locales[1].messages, { missing: ['nav.docs'], extra: ['nav.extra'], sameAsDefault: ['nav.blog'] });
});

test('--check fails on anything missing, and on more outdated or unknown pages than --max-outdated allows', () => {
  const dir = fixture();
  run(dir, '--done', 'de', '--all');
  const check = run(dir, '--check');
  assert.equal(check.code, 1);
  assert.match(check.err, /fr: 2 page\(s\) missing/);
  assert.match(check.err, /fr: 1 message key\(s\) missing/);

  // Only de: everything up to date passes; one outdated page fails unless allowed.
  const deOnly = makeLocales({
    en: { 'pages/index.md': makePage({ title: 'Home' }, 'Text.\n') },
    de: { 'pages/index.md': makePage({ title: 'Start' }) },
  });
  assert.equal(run(deOnly, '--check').code, 1, 'no record is unknown, and unknown is not passed');
  run(deOnly, '--done', 'de', '');
  assert.equal(run(deOnly, '--check').code, 0);
  writeFileSync(join(deOnly, 'en/pages/index.md'), makePage({ title: 'Home' }, 'Other text.\n'));
  assert.equal(run(deOnly, '--check').code, 1);
  assert.equal(run(deOnly, '--check', '--max-outdated', '1').code, 0);
  assert.equal(run(deOnly, '--check', '--max-outdated', 'x').code, 2);
});

test('--done refuses a page the locale has not translated, with a clear message', () => {
  const dir = fixture();
  const result = run(dir, '--done', 'fr', 'about');
  assert.equal(result.code, 2);
  assert.match(result.err, /fr has no translation of "about"/);
  assert.equal(run(dir, '--done', 'en', '--all').code, 2, 'the default locale has no translations');
});

test('--no-retranslate: a typo fix keeps up-to-date translations up to date, not older ones (on a temporary git repository)', () => {
  const dir = fixture();
  run(dir, '--done', 'de', '--all');
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe', encoding: 'utf8' });
  const commit = (...args: string[]) =>
    git('-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', 'commit', '-q', ...args);
  git('init', '-q');
  git('add', '.');
  commit('-m', 'site');
  // A real change to about, committed: de's about is outdated.
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About' }, 'New text.\n'));
  commit('-am', 'about changed');

  // Typo fixes, not committed yet, in routing (up to date in de) and about (outdated in de).
  writeFileSync(join(dir, 'en/pages/routing.md'), makePage({ title: 'Routing' }, 'Pages live under their locale.\n'));
  writeFileSync(join(dir, 'en/pages/about.md'), makePage({ title: 'About' }, 'New text!\n'));
  assert.equal(run(dir, '--no-retranslate', 'routing').code, 0);
  assert.equal(run(dir, '--no-retranslate', 'about').code, 0);

  const pages = JSON.parse(run(dir, '--json').out).locales[0].pages;
  assert.deepEqual(
    pages.map((page: { key: string; status: string }) => [page.key, page.status]),
    [
      ['', 'up-to-date'],
      ['about', 'outdated'],
      ['routing', 'up-to-date'],
    ],
  );
});

test('--help prints the usage, and an unknown option points to it', () => {
  const help = run(fixture(), '--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /^Usage: npm run translations -- \[option\]/);
  for (const option of [
    '--json',
    '--check',
    '--max-missing N',
    '--max-outdated N',
    '--html DIR',
    '--done LOCALE PAGE',
    '--no-retranslate',
    '--seed-from-git',
  ]) {
    assert.ok(help.out.includes(option), option);
  }
  const unknown = run(fixture(), '--chek');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /^translations: Unknown option '--chek'.* \(see npm run translations -- --help\)/);
});

test('--done understands a page by its file, its path in any locale folder, or its localized path', () => {
  const dir = makeLocales({
    en: {
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/docs/routing.md': makePage({ title: 'Routing' }),
      'pages/about.md': makePage(),
    },
    de: {
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/docs/routing.md': makePage({ title: 'Routing' }),
      'pages/about.md': makePage({ title: 'Über uns', slug: 'ueber-uns' }),
    },
  });
  const statuses = () => JSON.parse(run(dir, '--json').out).locales[0].pages.map((page: { status: string }) => page.status);
  assert.equal(run(dir, '--done', 'de', 'docs/routing.md').code, 0);
  assert.deepEqual(statuses(), ['unknown', 'unknown', 'up-to-date']);
  assert.equal(run(dir, '--done', 'de', join(dir, 'en/pages/index.md')).code, 0);
  assert.equal(run(dir, '--done', 'de', 'ueber-uns').code, 0);
  assert.deepEqual(statuses(), ['up-to-date', 'up-to-date', 'up-to-date']);
  const wrong = run(dir, '--done', 'de', 'docs/nowhere.md');
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /de has no translation of "docs\/nowhere"/);
});

test('--check --max-missing N lets a locale lack N pages, as --max-outdated lets N be outdated', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/new.md': makePage({ title: 'New' }) },
    de: { 'pages/index.md': makePage({ title: 'Start' }) },
  });
  run(dir, '--done', 'de', '--all');
  const strict = run(dir, '--check');
  assert.equal(strict.code, 1);
  assert.equal(strict.err, 'translations: de: 1 page(s) missing (at most 0 allowed)\n');
  assert.equal(run(dir, '--check', '--max-missing', '1').code, 0);
  const bad = run(dir, '--check', '--max-missing', 'some');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--max-missing needs a whole number, not "some"/);
});

test('--html DIR writes the status page /_translations shows, as a file to publish', () => {
  const dir = fixture();
  run(dir, '--done', 'de', '--all');
  const out = mkdtempSync(join(tmpdir(), 'polysite-status-'));
  try {
    const result = run(dir, '--html', join(out, 'status'));
    assert.equal(result.code, 0);
    const html = readFileSync(join(out, 'status', 'index.html'), 'utf8');
    assert.match(html, /^<!DOCTYPE html><html lang="en">/);
    assert.match(html, /<title>Translations<\/title>/);
    assert.match(html, /<section id="fr"><h2>fr: 0 up to date, 0 outdated, 2 missing, 1 unknown<\/h2>/);
    assert.match(html, /<tr class="missing"><td><code>about<\/code><\/td><td>missing<\/td><td><a href="\/fr\/about">/);
    assert.match(html, /Messages missing: <code>nav.docs<\/code>/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a message that does not match the default’s is listed by the report and fails --check, at its line', () => {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage(), 'messages.json': { ...MESSAGES, next: 'Next: {title}' } },
    es: { 'pages/index.md': makePage(), 'messages.json': { ...MESSAGES, next: 'Siguiente: {titulo}' } },
  });
  run(dir, '--done', 'es', '--all');
  // messages.json is written on one line: the column is where {titulo} stands in it.
  const column = JSON.stringify({ ...MESSAGES, next: 'Siguiente: {titulo}' }).indexOf('{titulo}') + 1;
  const problem = `${shown(dir, 'es/messages.json')}:1:${column}: message "next": \`{titulo}\`: the en message has \`{title}\``;
  const report = run(dir);
  assert.equal(report.code, 0);
  assert.ok(report.out.endsWith(`messages that do not match the en ones (the build refuses these):\n  ${problem}\n`), report.out);
  const check = run(dir, '--check');
  assert.equal(check.code, 1);
  assert.equal(check.err, `translations: ${problem}\n`);
});

test('a locale folder without messages.json is named, not skipped', () => {
  const dir = makeLocales({ en: { 'pages/index.md': makePage() }, es: { 'pages/index.md': makePage() } });
  rmSync(join(dir, 'es/messages.json'));
  const result = run(dir);
  assert.equal(result.code, 2);
  assert.equal(
    result.err,
    `translations: ${shown(dir, 'es')}: the locale folder "es" has no messages.json (every key of the default locale’s, translated)\n`,
  );
});

test('a locale with much to do is summarised per section with its 20 pages most behind; --locale and --status list them all', () => {
  const pages = [
    ...Array.from({ length: 40 }, (_, n) => ({ key: `docs/commands/c${n}`, status: n < 4 ? 'up-to-date' : 'missing' })),
    { key: 'docs/routing', status: 'outdated', behind: { commits: 3, days: 10, diffstat: '+2 -1' } },
    { key: 'about', status: 'unknown' },
  ].map((page) => ({ path: `/de/${page.key}`, original: `/en/${page.key}`, ...page })) as LocaleReport['pages'];
  const report = {
    defaultLocale: 'en',
    problems: [],
    locales: [
      {
        locale: 'de',
        counts: { 'up-to-date': 4, outdated: 1, missing: 36, unknown: 1 },
        pages,
        messages: { missing: [], extra: [], sameAsDefault: [] },
      },
    ],
  };
  const lines = formatReport(report).split('\n');
  assert.deepEqual(lines.slice(0, 6), [
    'de: 42 pages: 4 up to date, 1 outdated, 36 missing, 1 unknown',
    '  docs/commands: 4 of 40 translated (4 up to date, 0 outdated, 0 unknown)',
    '  (top): 1 of 1 translated (0 up to date, 0 outdated, 1 unknown)',
    '  docs: 1 of 1 translated (0 up to date, 1 outdated, 0 unknown)',
    '  outdated  docs/routing (3 commits, 10 days behind; +2 -1)',
    '  unknown   about',
  ]);
  assert.equal(lines.filter((line) => line.startsWith('  missing')).length, SUMMARY_PAGES - 2);
  assert.ok(
    lines.includes(`  ... and ${38 - SUMMARY_PAGES} more: npm run translations -- --locale de [--status missing|outdated|unknown]`),
  );
  const missing = formatReport(report, { locales: ['de'], statuses: ['missing'] }).split('\n');
  assert.equal(missing.filter((line) => line.startsWith('  missing')).length, 36);
  assert.equal(missing.filter((line) => line.startsWith('  outdated')).length, 0);
  assert.equal(
    formatReport(report, { full: true })
      .split('\n')
      .filter((line) => line.startsWith('  missing')).length,
    36,
  );
});
