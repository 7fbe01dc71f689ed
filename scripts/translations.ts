/**
 * `npm run translations`: how far each locale is behind the default one.
 *
 *   npm run translations                      the report, per locale: counts, per section when a
 *                                             locale has much to do, and the 20 pages most behind
 *   npm run translations -- --verbose         every page needing work, in every locale
 *   npm run translations -- --locale de [--status missing|outdated|unknown]
 *                                             every such page of one locale
 *   npm run translations -- --json            the same as JSON (every page with its status)
 *   npm run translations -- --check [--max-outdated N]
 *                                             exit 1 when a page or message key is missing, or more
 *                                             than N pages (default 0) are outdated or unknown
 *   npm run translations -- --done de docs/routing [more slugs]   (or --done de --all)
 *                                             record that these translations match the source now
 *   npm run translations -- --seed-from-git   once, for a site without records: each translation
 *                                             is recorded as made from the source of its last commit
 *   npm run translations -- --no-retranslate docs/routing
 *                                             the source's uncommitted change needs no translation
 *                                             (a typo fix): translations that matched the committed
 *                                             source are moved to the new one (needs git)
 *
 * No git is needed for the status: each locale's translations.json records the source
 * fingerprint each translation was made from (see src/server/content/translation-record.ts).
 */
import { execFileSync } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { splitFrontMatter } from '../src/server/content/front-matter.ts';
import { loadSite, type Site } from '../src/server/content/site.ts';
import {
  carryForward,
  readRecord,
  sourceFingerprint,
  type TranslationStatus,
  writeRecord,
} from '../src/server/content/translation-record.ts';
import { loadMessages } from '../src/server/content/messages.ts';
import { hasGit, seedRecord } from './translation-history.ts';
import { checkFailures, formatReport, translationReport } from './translation-report.ts';

class UsageError extends Error {}

function main(argv: string[]): number {
  const config = loadConfig({ ...process.env, PORT: '0' });
  const { localesDir, locales, defaultLocale } = config;
  const site = loadSite(localesDir, locales, defaultLocale, loadMessages(localesDir, locales, defaultLocale));
  const [command, ...rest] = argv;

  if (command === '--done') return done(site, localesDir, rest);
  if (command === '--no-retranslate') return noRetranslate(site, localesDir, rest);
  if (command === '--seed-from-git') return seed(site, localesDir);

  const report = translationReport(site, localesDir, { history: hasGit(localesDir) });
  const flags = new Set(argv.filter((arg) => arg.startsWith('--')));
  for (const flag of flags) {
    if (!['--json', '--check', '--max-outdated', '--verbose', '--locale', '--status'].includes(flag)) {
      throw new UsageError(`unknown option ${flag}`);
    }
  }
  const optionValue = (flag: string, allowed: readonly string[]): string[] | undefined => {
    const at = argv.indexOf(flag);
    if (at === -1) return undefined;
    const value = argv[at + 1];
    if (value === undefined || !allowed.includes(value)) throw new UsageError(`${flag} needs one of ${allowed.join(', ')}`);
    return [value];
  };
  const view = {
    full: flags.has('--verbose'),
    ...(flags.has('--locale') && {
      locales: optionValue(
        '--locale',
        locales.filter((locale) => locale !== defaultLocale),
      ),
    }),
    ...(flags.has('--status') && { statuses: optionValue('--status', ['missing', 'outdated', 'unknown']) as TranslationStatus[] }),
  };
  process.stdout.write(flags.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, view));
  if (!flags.has('--check')) return 0;
  const at = argv.indexOf('--max-outdated');
  const maxOutdated = at === -1 ? 0 : Number(argv[at + 1]);
  if (!Number.isInteger(maxOutdated) || maxOutdated < 0) throw new UsageError('--max-outdated needs a whole number');
  const failures = checkFailures(report, maxOutdated);
  for (const failure of failures) process.stderr.write(`translations: ${failure}\n`);
  return failures.length ? 1 : 0;
}

function done(site: Site, localesDir: string, [locale, ...slugs]: string[]): number {
  if (!locale || locale === site.defaultLocale || !site.locales.includes(locale)) {
    throw new UsageError(
      `--done needs a locale other than ${site.defaultLocale} (one of ${site.locales.join(', ')}), then page slugs or --all`,
    );
  }
  const sources = site.pages.get(site.defaultLocale)!;
  const pages = site.pages.get(locale)!;
  const own = [...pages.values()].filter((page) => page.contentLocale === locale && sources.has(page.key)).map((page) => page.key);
  const chosen = slugs.length === 1 && slugs[0] === '--all' ? own : slugs;
  if (!chosen.length) throw new UsageError('--done needs page slugs (as in the URL, "" for the home page) or --all');
  const record = { ...readRecord(localesDir, locale) };
  for (const slug of chosen) {
    if (!own.includes(slug)) throw new UsageError(`${locale} has no translation of "${slug}" (a page of ${site.defaultLocale})`);
    record[slug] = sources.get(slug)!.fingerprint;
  }
  writeRecord(localesDir, locale, record);
  process.stdout.write(`${locale}: ${chosen.length} page(s) recorded as up to date\n`);
  return 0;
}

/** One-time, for a site adopting records: each translation without one gets it from history. */
function seed(site: Site, localesDir: string): number {
  if (!hasGit(localesDir)) throw new UsageError('--seed-from-git needs git history: run it in a clone of the repository');
  const sources = site.pages.get(site.defaultLocale)!;
  for (const locale of site.locales) {
    if (locale === site.defaultLocale) continue;
    const record = { ...readRecord(localesDir, locale) };
    let seeded = 0;
    for (const page of site.pages.get(locale)!.values()) {
      const source = sources.get(page.key);
      if (page.contentLocale !== locale || !source || Object.hasOwn(record, page.key)) continue;
      const fingerprint = seedRecord(source.file, page.file);
      if (fingerprint === null) continue;
      record[page.key] = fingerprint;
      seeded++;
    }
    writeRecord(localesDir, locale, record);
    process.stdout.write(`${locale}: ${seeded} record(s) seeded from git history\n`);
  }
  return 0;
}

function noRetranslate(site: Site, localesDir: string, [slug, ...extra]: string[]): number {
  const source = slug === undefined ? undefined : site.pages.get(site.defaultLocale)!.get(slug);
  if (!source || extra.length) throw new UsageError('--no-retranslate needs one page slug of the default locale');
  const file = resolve(source.file);
  let committed: string;
  try {
    committed = execFileSync('git', ['-C', dirname(file), 'show', `HEAD:./${basename(file)}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    throw new UsageError(`--no-retranslate compares ${source.file} with its last commit: it needs git and a committed version of the file`);
  }
  const { data, body } = splitFrontMatter(committed, source.file);
  const previous = sourceFingerprint({ ...data, body });
  if (previous === source.fingerprint) {
    process.stdout.write(`${source.file}: no change since the last commit; nothing to record\n`);
    return 0;
  }
  for (const locale of site.locales) {
    if (locale === site.defaultLocale) continue;
    const before = readRecord(localesDir, locale);
    const after = carryForward(before, slug!, previous, source.fingerprint);
    if (after !== before) {
      writeRecord(localesDir, locale, after);
      process.stdout.write(`${locale}: ${slug} stays up to date\n`);
    }
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ContentError || error instanceof UsageError) {
    process.stderr.write(`translations: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
