import type { PageKey } from '../src/server/content/paths.ts';
import type { Site } from '../src/server/content/site.ts';
import type { TranslationStatus } from '../src/server/content/translation-record.ts';
import { translationRows } from '../src/server/content/translation-status.ts';
import { readMessageTexts, readSameAsDefault } from '../src/server/content/messages.ts';
import { type Behind, behind } from './translation-history.ts';

/** What `npm run translations` reports, and `--json` writes: every page of every locale with its status. */
export type TranslationReport = {
  defaultLocale: string;
  locales: LocaleReport[];
  /** Messages that do not match the default locale's (file:line:column: what), which the build refuses. */
  problems: string[];
};

export type LocaleReport = {
  locale: string;
  counts: Record<TranslationStatus, number>;
  /** Every page of the default locale: its status here, and both addresses. */
  pages: { key: PageKey; status: TranslationStatus; path: string; original: string; behind?: Behind }[];
  messages: { missing: string[]; extra: string[]; sameAsDefault: string[] };
};

/** `history`: add, from git, how far each outdated page is behind (leave it false where there is no `.git`). */
export function translationReport(site: Site, localesDir: string, { history = false, problems = [] as string[] } = {}): TranslationReport {
  const sources = site.pages.get(site.defaultLocale)!;
  const rows = translationRows(site);
  const reference = readMessageTexts(localesDir, site.defaultLocale);
  const locales = site.locales
    .filter((locale) => locale !== site.defaultLocale)
    .map((locale): LocaleReport => {
      const pages = rows
        .filter((row) => row.locale === locale)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(({ key, status, recorded }) => {
          const detail = history && status === 'outdated' ? behind(sources.get(key)!.file, recorded!) : null;
          return {
            key,
            status,
            path: site.paths.pathOf(locale, key),
            original: site.paths.pathOf(site.defaultLocale, key),
            ...(detail && { behind: detail }),
          };
        });
      const counts = { 'up-to-date': 0, outdated: 0, missing: 0, unknown: 0 };
      for (const page of pages) counts[page.status]++;
      const own = readMessageTexts(localesDir, locale);
      const allowed = new Set(readSameAsDefault(localesDir, locale));
      return {
        locale,
        counts,
        pages,
        messages: {
          missing: Object.keys(reference).filter((key) => !Object.hasOwn(own, key)),
          extra: Object.keys(own).filter((key) => !Object.hasOwn(reference, key)),
          sameAsDefault: Object.keys(own).filter((key) => own[key] === reference[key] && !allowed.has(key)),
        },
      };
    });
  return { defaultLocale: site.defaultLocale, locales, problems };
}

/**
 * Why `--check` fails: per locale, more than `maxMissing` pages missing or `maxOutdated`
 * outdated or unknown, any message key missing or extra; and any message problem.
 */
export function checkFailures(report: TranslationReport, { maxOutdated = 0, maxMissing = 0 } = {}): string[] {
  const failures: string[] = [];
  for (const { locale, counts, messages } of report.locales) {
    if (counts.missing > maxMissing) failures.push(`${locale}: ${counts.missing} page(s) missing (at most ${maxMissing} allowed)`);
    const behind = counts.outdated + counts.unknown;
    if (behind > maxOutdated) failures.push(`${locale}: ${behind} page(s) outdated or unknown (at most ${maxOutdated} allowed)`);
    if (messages.missing.length) failures.push(`${locale}: ${messages.missing.length} message key(s) missing`);
    if (messages.extra.length) failures.push(`${locale}: ${messages.extra.length} message key(s) not in ${report.defaultLocale}`);
  }
  failures.push(...report.problems);
  return failures;
}

const LABELS: Record<TranslationStatus, string> = {
  'up-to-date': 'up to date',
  outdated: 'outdated',
  missing: 'missing',
  unknown: 'unknown',
};

/** The report as text for a terminal: a summary line per locale, then what needs work. */
export function formatReport(report: TranslationReport): string {
  const lines: string[] = [];
  for (const { locale, counts, pages, messages } of report.locales) {
    const summary = (Object.keys(LABELS) as TranslationStatus[]).map((status) => `${counts[status]} ${LABELS[status]}`).join(', ');
    lines.push(`${locale}: ${pages.length} pages: ${summary}`);
    for (const page of pages) {
      if (page.status === 'up-to-date') continue;
      const detail = page.behind && ` (${describeBehind(page.behind)})`;
      lines.push(`  ${LABELS[page.status].padEnd(9)} ${page.key || '(home)'}${detail ?? ''}`);
    }
    const list = (keys: string[]) => (keys.length ? `: ${keys.join(', ')}` : '');
    lines.push(
      `  messages: ${messages.missing.length} missing${list(messages.missing)}; ${messages.extra.length} extra${list(messages.extra)}`,
    );
    if (messages.sameAsDefault.length) {
      lines.push(`  same as ${report.defaultLocale} (probably untranslated)${list(messages.sameAsDefault)}`);
    }
  }
  if (report.problems.length) {
    lines.push(
      `messages that do not match the ${report.defaultLocale} ones (the build refuses these):`,
      ...report.problems.map((problem) => `  ${problem}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * How far an outdated page's source moved: commits since the recorded version, or,
 * when the recorded version is the last commit, an edit not committed yet.
 */
export function describeBehind({ commits, days, diffstat }: Behind): string {
  const change = diffstat || 'no diff';
  if (commits === 0) return `changed since it was recorded, not committed yet; ${change}`;
  return `${plural(commits, 'commit')}, ${plural(days, 'day')} behind; ${change}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
