import MarkdownIt from 'markdown-it';
import type { Heading } from '../../routes/types.ts';
import type { LineMessage } from './markdown/env.ts';
import type { Section } from './sections.ts';

/**
 * One Markdown text's compile, kept so that the same text elsewhere in the site is not
 * parsed and rendered again: a frozen docs version is mostly the same pages as the
 * version after it, word for word. Only the links differ from page to page (each goes to
 * its target in the page's own version and locale), so the HTML is kept with a slot
 * where each link's href goes, and each page fills the slots with its own hrefs.
 *
 * Contract with site.ts: a render is shared only between pages of the same content
 * language and the same body at the same line of its file (the labels, the lines in
 * reports and every rule's output are then the same), and only when it showed no image
 * (an image's asset depends on where the page's file is). A link with no path (`#x`,
 * `?q`) is rendered as written by site.ts's resolver, so it is kept in the HTML as it is:
 * sections.ts reads those hrefs from the tokens.
 */
export type SharedRender = {
  /** The HTML with SLOT-marked places, `\u{E001}<n>\u{E001}`, for the n-th link's href. */
  html: string;
  /** Every link the text names, in the order it was resolved: each page resolves them again. */
  links: readonly (readonly [href: string, line: number])[];
  headings: Heading[];
  sections: Section[];
  textLength: number;
  problems: readonly LineMessage[];
  warnings: readonly LineMessage[];
};

/** The mark a slot is made of: a private-use character (a text that holds it is not shared). */
const SLOT = '\u{E001}';
const SLOTS = /\u{E001}(\d+)\u{E001}/gu;
const { escapeHtml } = new MarkdownIt().utils;

/**
 * Renders shared between pages of one load, admitted until `maxBytes` are held (a frozen
 * version's pages then find the ones of the version before them; past the bound a text is
 * rendered for itself, as without the memo).
 */
export function sharedRenders(maxBytes: number) {
  const kept = new Map<string, SharedRender>();
  let bytes = 0;
  return {
    /** The key of a page's text, or undefined when it cannot be shared. */
    keyOf(locale: string, bodyLine: number, body: string): string | undefined {
      return body.includes(SLOT) ? undefined : `${locale}\0${bodyLine}\0${body}`;
    },
    get(key: string): SharedRender | undefined {
      return kept.get(key);
    },
    set(key: string, render: SharedRender): void {
      const cost = costOf(key, render);
      if (bytes + cost > maxBytes) return;
      kept.set(key, render);
      bytes += cost;
    },
  };
}

/** A link host's answer as the shared HTML holds it: a slot, or the href itself when it has no path. */
export function slotFor(href: string, index: number): string {
  return href.startsWith('#') || href.startsWith('?') ? href : `${SLOT}${index}${SLOT}`;
}

/** The shared HTML with each slot filled with its link's href (escaped as markdown-it escapes an attribute). */
export function fillSlots(html: string, hrefs: readonly string[]): string {
  return html.replace(SLOTS, (_, index: string) => escapeHtml(hrefs[Number(index)]!));
}

/** What a kept render holds, about: its strings at two bytes a unit and the arrays around them. */
function costOf(key: string, render: SharedRender): number {
  let units = key.length + render.html.length;
  for (const [href] of render.links) units += href.length + 8;
  for (const section of render.sections) units += section.id.length + section.heading.length + section.text.length + 16;
  for (const heading of render.headings) units += JSON.stringify(heading).length;
  return 256 + 2 * units;
}
