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

/** Pages needing work a locale's summary lists; `--verbose` (or `--locale`, `--status`) lists them all. */
export const SUMMARY_PAGES = 20;

/** What the text report shows: every page needing work (`full`), of these locales and statuses only. */
export type ReportView = { full?: boolean; locales?: readonly string[]; statuses?: readonly TranslationStatus[] };

/**
 * The report as text for a terminal: a summary line per locale, then what needs work. A
 * site of thousands of pages would print a line for each: by default a locale shows its
 * counts per section (the page's folder) and the SUMMARY_PAGES pages most behind
 * (outdated, by commits behind, then unknown, then missing), and says how many more.
 */
export function formatReport(report: TranslationReport, view: ReportView = {}): string {
  const lines: string[] = [];
  const rank: Record<TranslationStatus, number> = { outdated: 0, unknown: 1, missing: 2, 'up-to-date': 3 };
  for (const { locale, counts, pages, messages } of report.locales) {
    if (view.locales && !view.locales.includes(locale)) continue;
    const summary = (Object.keys(LABELS) as TranslationStatus[]).map((status) => `${counts[status]} ${LABELS[status]}`).join(', ');
    lines.push(`${locale}: ${pages.length} pages: ${summary}`);
    const work = pages.filter((page) => page.status !== 'up-to-date' && (!view.statuses || view.statuses.includes(page.status)));
    const full = view.full || view.locales !== undefined || view.statuses !== undefined || work.length <= SUMMARY_PAGES;
    if (!full) {
      for (const line of sectionLines(pages)) lines.push(`  ${line}`);
      work.sort((a, b) => rank[a.status] - rank[b.status] || (b.behind?.commits ?? 0) - (a.behind?.commits ?? 0));
    }
    for (const page of full ? work : work.slice(0, SUMMARY_PAGES)) {
      const detail = page.behind && ` (${describeBehind(page.behind)})`;
      lines.push(`  ${LABELS[page.status].padEnd(9)} ${page.key || '(home)'}${detail ?? ''}`);
    }
    if (!full) {
      lines.push(
        `  ... and ${work.length - SUMMARY_PAGES} more: npm run translations -- --locale ${locale} [--status missing|outdated|unknown]`,
      );
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

/** One line per section (a page's folder, `(top)` for the top level), the largest first: how much of it is translated and up to date. */
function sectionLines(pages: LocaleReport['pages']): string[] {
  const sections = new Map<string, Record<TranslationStatus, number>>();
  for (const page of pages) {
    const cut = page.key.lastIndexOf('/');
    const section = cut === -1 ? '(top)' : page.key.slice(0, cut);
    const counts = sections.get(section) ?? { 'up-to-date': 0, outdated: 0, missing: 0, unknown: 0 };
    counts[page.status]++;
    sections.set(section, counts);
  }
  return [...sections]
    .map(([section, counts]) => ({ section, counts, total: Object.values(counts).reduce((sum, count) => sum + count, 0) }))
    .sort((a, b) => b.total - a.total || a.section.localeCompare(b.section))
    .map(
      ({ section, counts, total }) =>
        `${section}: ${total - counts.missing} of ${total} translated (${counts['up-to-date']} up to date, ${counts.outdated} outdated, ${counts.unknown} unknown)`,
    );
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
