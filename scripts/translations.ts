/**
 * `npm run translations`: how far each locale is behind the default one (see USAGE).
 *
 * No git is needed for the status: each locale's translations.json records the source
 * fingerprint each translation was made from (see src/server/content/translation-record.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { splitFrontMatter } from '../src/server/content/front-matter.ts';
import { localeFolderProblems } from '../src/server/content/load-content.ts';
import { loadSite, type Site, keyOf } from '../src/server/content/site.ts';
import {
  carryForward,
  readRecord,
  sourceFingerprint,
  type TranslationRecord,
  writeRecord,
} from '../src/server/content/translation-record.ts';
import { baseKey, versionOf } from '../src/server/content/versions.ts';
import { checkMessages } from '../src/server/content/messages.ts';
import { hasGit, seedRecord } from './translation-history.ts';
import { translationPage } from './translation-page.ts';
import { checkFailures, formatReport, type ReportView, translationReport } from './translation-report.ts';

class UsageError extends Error {}

const USAGE = `Usage: npm run translations -- [option]

  (no option)            the report: per locale, pages up to date, outdated, missing and
                         unknown, and message keys missing, extra or left untranslated; a
                         locale with more than 20 pages to do shows its counts per section
                         and the 20 pages most behind
  --verbose, -v          every page that needs work, in every locale
  --locale LOCALE [--status missing|outdated|unknown]
                         every page of one locale that needs work (of one status)
  --json                 the same as JSON (every page with its status)
  --check [--max-missing N] [--max-outdated N]
                         exit 1 when a locale has more than N pages missing (default 0),
                         more than N outdated or unknown (default 0), a message key
                         missing or extra, or a message that does not match the default's
  --html DIR             write the report as DIR/index.html, the page the dev server
                         shows at /_translations, to publish for translators
  --done LOCALE PAGE...  record that these translations match their source now; a page is
                         its key (docs/routing, "" for home), its file (docs/routing.md,
                         locales/de/pages/docs/routing.md) or its localized path; or --all
  --no-retranslate PAGE  the source's uncommitted change needs no new translation (a typo
                         fix): translations that matched the committed source are moved
                         to the new one (needs git)
  --seed-from-git        once, for a site without records: each translation is recorded
                         as made from the source of its last commit
  --help                 this text
`;

function main(argv: string[]): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (see npm run translations -- --help)`);
  }
  const { values: options, positionals } = parsed;
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const commands = (['done', 'no-retranslate', 'seed-from-git'] as const).filter((name) => options[name]);
  if (commands.length > 1) throw new UsageError(`--${commands.join(' and --')} are separate commands: give one`);
  if (!commands.length && positionals.length)
    throw new UsageError(`unexpected argument "${positionals[0]}" (see npm run translations -- --help)`);

  const config = loadConfig({ ...process.env, PORT: '0' });
  const { localesDir, locales, defaultLocale } = config;
  // The content check of the build (load-content.ts), except that a message that does not
  // match the default's is listed in the report (and fails --check) rather than stopping it.
  const folders = localeFolderProblems(localesDir, locales);
  if (folders.length) throw new ContentError(folders);
  const messages = checkMessages(localesDir, locales, defaultLocale);
  const site = loadSite(localesDir, locales, defaultLocale, messages.catalog);

  if (options.done) return done(site, localesDir, positionals, options.all === true);
  if (options['no-retranslate']) return noRetranslate(site, localesDir, positionals);
  if (options['seed-from-git']) return seed(site, localesDir);

  const report = translationReport(site, localesDir, { history: hasGit(localesDir), problems: messages.problems });
  if (options.html !== undefined) {
    const file = join(options.html, 'index.html');
    mkdirSync(options.html, { recursive: true });
    // Links go to the published site when PUBLIC_URL names it; otherwise they are paths on this host.
    writeFileSync(file, translationPage(report, { base: process.env.PUBLIC_URL?.trim() ? config.publicUrl : '', title: 'Translations' }));
    process.stdout.write(`translations: wrote ${relative(process.cwd(), file) || file}\n`);
  } else {
    process.stdout.write(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, reportView(options, locales, defaultLocale)),
    );
  }
  if (!options.check) return 0;
  const failures = checkFailures(report, { maxOutdated: count(options, 'max-outdated'), maxMissing: count(options, 'max-missing') });
  for (const failure of failures) process.stderr.write(`translations: ${failure}\n`);
  return failures.length ? 1 : 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      check: { type: 'boolean' },
      'max-outdated': { type: 'string' },
      'max-missing': { type: 'string' },
      html: { type: 'string' },
      done: { type: 'boolean' },
      all: { type: 'boolean' },
      'no-retranslate': { type: 'boolean' },
      'seed-from-git': { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      locale: { type: 'string' },
      status: { type: 'string' },
    },
  });
}

/** What the text report lists: `--verbose` every page needing work; `--locale`, `--status` those of one locale, one status. */
function reportView(
  options: { verbose?: boolean; locale?: string; status?: string },
  locales: readonly string[],
  defaultLocale: string,
): ReportView {
  const others = locales.filter((locale) => locale !== defaultLocale);
  if (options.locale !== undefined && !others.includes(options.locale)) throw new UsageError(`--locale needs one of ${others.join(', ')}`);
  const statuses = ['missing', 'outdated', 'unknown'] as const;
  const status = statuses.find((name) => name === options.status);
  if (options.status !== undefined && !status) throw new UsageError(`--status needs one of ${statuses.join(', ')}`);
  return {
    full: options.verbose === true,
    ...(options.locale !== undefined && { locales: [options.locale] }),
    ...(status && { statuses: [status] }),
  };
}

/** A `--max-*` limit: a whole number, 0 when not given. */
function count(options: Record<string, unknown>, name: 'max-outdated' | 'max-missing'): number {
  const raw = options[name];
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
    throw new UsageError(`--${name} needs a whole number, not "${String(raw)}"`);
  }
  return value;
}

function done(site: Site, localesDir: string, [locale, ...pages]: string[], all: boolean): number {
  if (!locale || locale === site.defaultLocale || !site.locales.includes(locale)) {
    throw new UsageError(`--done needs a locale other than ${site.defaultLocale} (one of ${site.locales.join(', ')}), then pages or --all`);
  }
  const sources = site.pages.get(site.defaultLocale)!;
  const served = site.pages.get(locale)!;
  const own = [...served.values()].filter((page) => page.contentLocale === locale && sources.has(page.key)).map((page) => page.key);
  if (all && pages.length) throw new UsageError('--done takes pages or --all, not both');
  const chosen = all ? own : pages.map((page) => pageKey(site, localesDir, locale, page));
  if (!chosen.length) throw new UsageError('--done needs pages (a key such as docs/routing, "" for the home page, or a file) or --all');
  // Each tree keeps its own records: a frozen docs version's in its folder, by the key its tree has (`docs/x`).
  const records = new Map<string, TranslationRecord>();
  for (const slug of chosen) {
    if (!own.includes(slug)) throw new UsageError(`${locale} has no translation of "${slug}" (a page of ${site.defaultLocale})`);
    const version = versionOf(site.versions, slug);
    const dir = version?.dir ?? localesDir;
    const record = records.get(dir) ?? { ...readRecord(dir, locale) };
    record[version?.dir ? baseKey(version, slug) : slug] = sources.get(slug)!.fingerprint;
    records.set(dir, record);
  }
  for (const [dir, record] of records) writeRecord(dir, locale, record);
  process.stdout.write(`${locale}: ${chosen.length} page(s) recorded as up to date\n`);
  return 0;
}

/**
 * The page (its key) an argument names: a key (`docs/routing`, "" for home), the
 * page's localized path in the locale (`ueber-uns`), or a file: `docs/routing.md`
 * under pages/, or a path to it in any locale's folder
 * (`locales/de/pages/docs/routing.md`, `locales/en/pages/docs/routing/index.md`).
 */
function pageKey(site: Site, localesDir: string, locale: string, argument: string): string {
  const name = argument.split('\\').join('/');
  if (name.endsWith('.md')) {
    const file = resolve(name);
    for (const other of site.locales) {
      const pagesDir = resolve(localesDir, other, 'pages');
      if (file.startsWith(`${pagesDir}/`)) return keyOf(relative(pagesDir, file));
    }
    return keyOf(name.replace(/^\/+/, ''));
  }
  const slug = name.replace(/^\/+|\/+$/g, '');
  if (site.pages.get(site.defaultLocale)!.has(slug)) return slug;
  const local = [...site.pages.get(locale)!.values()].find((page) => page.localPath === slug);
  return local ? local.key : slug;
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

function noRetranslate(site: Site, localesDir: string, [page, ...extra]: string[]): number {
  const slug = page === undefined ? undefined : pageKey(site, localesDir, site.defaultLocale, page);
  const source = slug === undefined ? undefined : site.pages.get(site.defaultLocale)!.get(slug);
  if (!source || extra.length) throw new UsageError('--no-retranslate needs one page of the default locale (its key or its file)');
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
