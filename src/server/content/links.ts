// Links between pages, as the compiler checks them: a relative link (`./other.md`,
// `../guides/install.md`, `other`) names a page by its file, beside the linking page;
// a `#fragment` must name a heading the target page has in the locale the link is
// served in (a translation's headings get ids from its own words, unless it keeps
// the source's `{#id}`).
import { posix } from 'node:path';
import type { SourcePage } from './site.ts';

/** A link with a `#fragment`, checked once every page is compiled. */
export type FragmentLink = {
  file: string;
  line: number;
  href: string;
  locale: string;
  sourceLocale: string;
  key: string;
  fragment: string;
};

/**
 * The page key a relative link names, from the linking file's path under its locale's
 * folder (`pages/docs/install.md`), or why it names none. `pageKeys`: every page key
 * of any locale.
 */
export function relativeKey(from: { path: string }, target: string, pageKeys: { has(key: string): boolean }): string | { problem: string } {
  const joined = posix.normalize(posix.join(posix.dirname(from.path), target));
  if (!joined.startsWith('pages/') && joined !== 'pages' && joined !== 'pages/') {
    return { problem: 'which leads out of the pages folder; link to a page under pages/' };
  }
  let rest = joined.slice('pages/'.length).replace(/\/$/, '');
  const ext = posix.extname(rest);
  if (ext && ext !== '.md') return { problem: 'which is not a page (.md file); link to a Markdown page' };
  rest = rest.replace(/\.md$/, '');
  // In NFC, as page keys are: the linking file's folder or the link may be spelled decomposed (NFD).
  const key = (rest === 'index' ? '' : rest.replace(/\/index$/, '')).normalize('NFC');
  if (!pageKeys.has(key))
    return {
      problem: `a file that exists in no locale: pages/${rest || 'index'}.md (or pages/${rest ? `${rest}/` : ''}index.md)`,
    };
  return key;
}

/** A problem for each fragment naming no heading of its target page in the locale it is served in. */
export function fragmentProblems(links: readonly FragmentLink[], pages: ReadonlyMap<string, ReadonlyMap<string, SourcePage>>): string[] {
  const ids = new Map<SourcePage, Set<string>>();
  const problems: string[] = [];
  for (const link of links) {
    const page = pages.get(link.locale)?.get(link.key);
    if (!page) continue; // A link to no page: reported as such.
    const known = ids.get(page) ?? new Set(page.headings().map((heading) => heading.id));
    ids.set(page, known);
    const id = safeDecode(link.fragment);
    if (!id || known.has(id)) continue;
    const where = page.contentLocale === link.sourceLocale ? page.file : `${page.file} (what ${link.locale} serves)`;
    const hint =
      page.contentLocale === link.sourceLocale
        ? `name one of its headings' ids, or give a heading that id: ## Heading {#${id}}`
        : `its headings take their ids from their own words: give the heading the same id there, ## Heading {#${id}}`;
    problems.push(`${link.file}:${link.line}: link to ${link.href}: ${where} has no heading with the id "${id}"; ${hint}`);
  }
  return problems;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
