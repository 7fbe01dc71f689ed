import type { Direction } from '../i18n/locales.ts';
import type { Heading, LocaleLink } from './types.ts';

// The parts of a page's data that its document already shows in full, read back
// from the markup that shows them: the embedded page data leaves them out
// (page-data.ts#serializePayload), so a first load carries them once.
//
// The contract is these data-* attributes: each component below writes them
// (importing READ_BACK), each reader finds its values through them alone, never
// through a class or a tag the stylesheet may change.
//   readLocales  <- LanguageSwitcher (language-switcher.tsx)
//   readSidebar  <- Docs' sidebar (screens/docs.tsx), the HTML src/server/pages/docs-tree.ts writes
//   readToc      <- Docs' Contents (screens/docs.tsx)
// test/routes/read-back.test.tsx renders each component and reads it back;
// test/e2e/read-back.test.ts reads every page of the site back in Chromium and
// compares it with the same page's JSON.
export const READ_BACK = {
  /** On each language switcher link: its locale. */
  localeSwitch: 'data-locale-switch',
  /** On the docs sidebar's <nav>, which holds the tree's HTML. */
  docsSidebar: 'data-docs-sidebar',
  /** On each list of "On this page" (the outer one and every nested one). */
  contents: 'data-contents',
  /** On the link of an entry of "On this page": what the entry is. */
  entry: 'data-entry',
} as const;

/** The language switcher's entries: every locale, with this page's path in it. */
export function readLocales(doc: ParentNode): LocaleLink[] {
  return [...doc.querySelectorAll(`a[${READ_BACK.localeSwitch}]`)].map((link) => ({
    locale: link.getAttribute(READ_BACK.localeSwitch)!,
    name: link.textContent ?? '',
    path: link.getAttribute('href')!,
    dir: link.getAttribute('dir') as Direction,
  }));
}

/** The docs tree as the sidebar shows it: its HTML, as the page carries it (the server wrote it, src/server/pages/docs-tree.ts). */
export function readSidebar(doc: ParentNode): string {
  return doc.querySelector(`[${READ_BACK.docsSidebar}]`)?.innerHTML ?? '';
}

/**
 * "On this page" as its nested list shows it. A heading's level is its depth in
 * the list (2 outside, 3 within): what Contents nests by, so the list renders
 * the same, but an h3 that comes before any h2 reads back as 2.
 */
export function readToc(doc: ParentNode): Heading[] {
  const list = doc.querySelector(`[${READ_BACK.contents}]`);
  const headings: Heading[] = [];
  if (list) collectHeadings(list, 2, headings);
  return headings;
}

function collectHeadings(list: Element, level: number, into: Heading[]): void {
  for (const item of list.children) {
    const link = item.querySelector(`:scope > [${READ_BACK.entry}]`)!;
    into.push({ id: link.getAttribute('href')!.slice(1), text: link.textContent ?? '', level });
    const inner = item.querySelector(`:scope > [${READ_BACK.contents}]`);
    if (inner) collectHeadings(inner, level + 1, into);
  }
}
