/**
 * Audits that a screen fails by design, and why. Lighthouse's SEO audits ask whether a page
 * may be indexed ("Page is blocked from indexing", "Page has successful HTTP status code"):
 * its docs describe them for pages meant to be found, and a not-found page or a results page
 * is not one. A not-found page must answer 404 and say noindex; Chromium then logs the
 * document's own 404 as a console error, which Best Practices counts. The pass gives such a
 * category's score without the exempt audits, marked, and says why under the table; any
 * other failure still counts.
 */

export type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';

type Audit = {
  score: number | null;
  scoreDisplayMode?: string;
  details?: { items?: { source?: string; description?: string; sourceLocation?: { url?: string } }[] };
};

/** The part of Lighthouse's result (lhr) that scoring reads. */
export type ScoredResult = {
  finalDisplayedUrl?: string;
  categories: Record<string, { score: number | null; auditRefs?: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
};

type Exemption = {
  audits: string[];
  why: string;
  /** The exemption holds only when this is true of the result (the default: always). */
  holds?: (lhr: ScoredResult, url: string) => boolean;
};

export const EXEMPTIONS: Record<string, Partial<Record<Category, Exemption>>> = {
  search: {
    seo: { audits: ['is-crawlable'], why: 'a results page is noindex: it is not for the index' },
  },
  '404': {
    seo: {
      audits: ['is-crawlable', 'http-status-code'],
      why: 'a not-found page answers 404 and is noindex, as it must (Lighthouse scores indexable pages)',
    },
    'best-practices': {
      audits: ['errors-in-console'],
      why: "Chromium logs the document's own 404 status as a console error; no other error is exempt",
      holds: onlyOwnNotFound,
    },
  },
};

/**
 * A category's score, 0-100: Lighthouse's own, or, where the screen has an exemption that
 * holds, the weighted mean of its scored audits but the exempt ones (Lighthouse's formula).
 */
export function categoryScore(lhr: ScoredResult, category: Category, screen: string, url: string): { score: number; exempt: boolean } {
  const own = Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const exemption = EXEMPTIONS[screen]?.[category];
  if (!exemption || own === 100 || !(exemption.holds?.(lhr, url) ?? true)) return { score: own, exempt: false };
  let sum = 0;
  let weights = 0;
  for (const { id, weight } of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[id];
    if (!audit || weight === 0 || audit.score === null || exemption.audits.includes(id)) continue;
    sum += weight * audit.score;
    weights += weight;
  }
  return { score: weights === 0 ? own : Math.round((sum / weights) * 100), exempt: true };
}

/** Every console error is the network's report of the document itself (the 404 it is meant to answer). */
function onlyOwnNotFound(lhr: ScoredResult, url: string): boolean {
  const items = lhr.audits['errors-in-console']?.details?.items ?? [];
  return items.every((item) => item.source === 'network' && item.sourceLocation?.url === url && /\b404\b/.test(item.description ?? ''));
}

/** The notes under the table: each exemption used, once. */
export function exemptionNotes(used: Iterable<string>): string[] {
  const notes: string[] = [];
  for (const key of used) {
    const [screen, category] = key.split(' ') as [string, Category];
    const exemption = EXEMPTIONS[screen]?.[category];
    if (exemption) notes.push(`* ${screen}, ${category}: without ${exemption.audits.join(', ')}: ${exemption.why}`);
  }
  return notes;
}
