import { escapeHtml } from '../src/server/escape-html.ts';
import type { TranslationStatus } from '../src/server/content/translation-record.ts';
import { describeBehind, type TranslationReport } from './translation-report.ts';

/**
 * The dev server's `/_translations`, and the file `npm run translations -- --html DIR`
 * writes: the report as a table, each row linking to the page in both languages.
 */
export const STATUS_PATH = '/_translations';

const LABELS: Record<TranslationStatus, string> = {
  'up-to-date': 'up to date',
  outdated: 'outdated',
  missing: 'missing',
  unknown: 'unknown',
};

const CSS =
  'body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1b1f24}main{max-width:64rem;margin:2rem auto;padding:0 1.5rem}table{border-collapse:collapse;width:100%;margin-bottom:2rem}th,td{text-align:start;padding:.25rem .6rem;border-bottom:1px solid #d0d7de}.outdated{background:#fff4d6}.missing{background:#ffe3e3}.unknown{background:#eef}code{font:13px ui-monospace,monospace}';

/** `base`: the origin the links go to ('' for paths on the host that serves the page); `title`: the page's title. */
export function translationPage(report: TranslationReport, { base = '', title = 'Translations · polysite dev' } = {}): string {
  const sections = report.locales.map(({ locale, counts, pages, messages }) => {
    const summary = (Object.keys(LABELS) as TranslationStatus[]).map((status) => `${counts[status]} ${LABELS[status]}`).join(', ');
    const rows = pages
      .map(
        (page) =>
          `<tr class="${page.status}"><td><code>${escapeHtml(page.key || '(home)')}</code></td><td>${LABELS[page.status]}${page.behind ? ` (${escapeHtml(describeBehind(page.behind))})` : ''}</td>` +
          `<td><a href="${escapeHtml(base + page.path)}">${escapeHtml(page.path)}</a></td><td><a href="${escapeHtml(base + page.original)}">${escapeHtml(page.original)}</a></td></tr>`,
      )
      .join('');
    const keys = (list: string[]) => (list.length ? list.map((key) => `<code>${escapeHtml(key)}</code>`).join(', ') : 'none');
    return (
      `<section id="${escapeHtml(locale)}"><h2>${escapeHtml(locale)}: ${summary}</h2>` +
      `<p>Messages missing: ${keys(messages.missing)}. Extra: ${keys(messages.extra)}. Same as ${escapeHtml(report.defaultLocale)} (probably untranslated): ${keys(messages.sameAsDefault)}.</p>` +
      `<table><thead><tr><th>Page</th><th>Status</th><th>Translation</th><th>Original</th></tr></thead><tbody>${rows}</tbody></table></section>`
    );
  });
  const problems = report.problems.length
    ? `<section id="problems"><h2>Messages that do not match the ${escapeHtml(report.defaultLocale)} ones</h2><ul>${report.problems.map((problem) => `<li><code>${escapeHtml(problem)}</code></li>`).join('')}</ul></section>`
    : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body><main><h1>Translations</h1><p>Mark a page up to date with <code>npm run translations -- --done &lt;locale&gt; &lt;page&gt;</code>.</p>${problems}${sections.join('')}</main></body></html>`;
}
