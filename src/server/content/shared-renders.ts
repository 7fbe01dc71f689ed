import MarkdownIt from 'markdown-it';
import type { Heading } from '../../routes/types.ts';
import { renderMarkdown, textLength } from './markdown.ts';
import type { LineMessage, MarkdownHost, MarkdownLabels } from './markdown/env.ts';
import { markdownTwinBody, twinTarget } from './markdown-twin.ts';
import { type Section, sectionsOf } from './sections.ts';
import { sourceFingerprint } from './translation-record.ts';

/**
 * A page's text as compiled: its front matter's words, and its body at its line in its file.
 * `source`: it is a page of the default locale served as itself, which translation records are compared with.
 */
export type PageText = { locale: string; title: string; description: string; body: string; bodyLine: number; source: boolean };

/** What a page's text compiles to, with the page's own links in it. */
export type CompiledText = {
  html: string;
  headings: Heading[];
  sections: Section[];
  textLength: number;
  /** The Markdown twin's body (markdown-twin.ts). */
  twin: string;
  /**
   * What translation records compare (translation-record.ts): made for a source's text
   * alone ('' for any other: a record holds its source's fingerprint, never its own).
   */
  fingerprint: string;
  /** The Markdown's own mistakes (a link's are the host's to report). */
  problems: readonly LineMessage[];
  warnings: readonly LineMessage[];
};

/**
 * One text's compile, kept so that the same text elsewhere in the site is not parsed,
 * rendered and flattened again: a frozen docs version is mostly the same pages as the
 * version after it, word for word. Only the links differ from page to page (each goes to
 * its target in the page's own version and locale), so the HTML and the twin are kept
 * with a slot where each link's target goes, and each page resolves its links again and
 * fills the slots. So each version links within itself, and a link that one version lacks
 * is that version's error.
 *
 * A render is shared only between pages of the same content language, with the same body
 * at the same line of its file: the labels, the lines in reports and every rule's output
 * are then the same. A text that shows an image is compiled for each page (an image's
 * asset depends on where the page's file is). A link with no path (`#x`, `?q`) is
 * rendered as written (site.ts's resolver), so it stays in the HTML as it is:
 * sections.ts reads those hrefs from the tokens.
 */
type Shared = {
  locale: string;
  bodyLine: number;
  /** The HTML and the twin with slots, `\u{E001}<n>\u{E001}`, for the n-th link's target. */
  html: string;
  twin: string;
  /** Every link the text names, as the host was asked, in order: each page asks again. */
  links: readonly (readonly [href: string, line: number])[];
  headings: Heading[];
  sections: Section[];
  textLength: number;
  problems: readonly LineMessage[];
  warnings: readonly LineMessage[];
  fingerprint: { title: string; description: string; value: string };
};

/** The mark a slot is made of: a private-use character (a text that holds it is not shared). */
const SLOT = '\u{E001}';
const SLOTS = /\u{E001}(\d+)\u{E001}/gu;
const { escapeHtml } = new MarkdownIt().utils;

/**
 * Compiles a page's text; with `share`, each text once for all the pages that have it,
 * kept until `maxBytes` are held (a frozen version's pages then find the ones of the
 * version before them; past the bound a text is compiled for each page, as without).
 * `host` resolves a link and finds an image for the page being compiled; `rewritten`
 * maps each link and image as written to what the page renders it as (the twin's targets).
 */
export function textCompiler(labels: ReadonlyMap<string, MarkdownLabels>, share: boolean, maxBytes: number) {
  const kept = new Map<string, Shared>();
  let bytes = 0;
  const alone = (text: PageText, host: MarkdownHost, rewritten: ReadonlyMap<string, string>): CompiledText => {
    const label = labels.get(text.locale)!;
    const rendered = renderMarkdown(text.body, { host, labels: label, lineOffset: text.bodyLine });
    return {
      ...rendered,
      sections: sectionsOf(rendered.tokens),
      textLength: textLength(text.body),
      twin: markdownTwinBody(text.body, rewritten, label),
      fingerprint: fingerprintOf(text),
    };
  };
  return (text: PageText, host: MarkdownHost, rewritten: ReadonlyMap<string, string>): CompiledText => {
    if (!share || text.body.includes(SLOT)) return alone(text, host, rewritten);
    const known = kept.get(text.body);
    if (known && known.locale === text.locale && known.bodyLine === text.bodyLine) {
      const targets = known.links.map(([href, line]) => host.link(href, line));
      const { title, description, value } = known.fingerprint;
      return {
        ...known,
        html: fillSlots(known.html, targets, escapeHtml),
        twin: fillSlots(known.twin, targets, twinTarget),
        fingerprint: text.source && title === text.title && description === text.description && value ? value : fingerprintOf(text),
      };
    }
    const links: [string, number][] = [];
    const targets: string[] = [];
    const slotted = new Map<string, string>();
    let imaged = false;
    const slotHost: MarkdownHost = {
      link(href, line) {
        links.push([href, line]);
        targets.push(host.link(href, line));
        const slot = slotFor(href, targets.length - 1);
        if (!slotted.has(href)) slotted.set(href, slot);
        return slot;
      },
      image(src, line) {
        imaged = true;
        const image = host.image(src, line);
        // As site.ts's `rewritten` has it: the twin names an image by its asset.
        if (image) slotted.set(src, image.src);
        return image;
      },
    };
    const compiled = alone(text, slotHost, slotted);
    const fingerprint = { title: text.title, description: text.description, value: compiled.fingerprint };
    const made: Shared = { ...compiled, locale: text.locale, bodyLine: text.bodyLine, links, fingerprint };
    const cost = 256 + 2 * (made.html.length + made.twin.length) + links.reduce((sum, [href]) => sum + 2 * href.length + 32, 0);
    if (!imaged && !known && bytes + cost <= maxBytes) {
      kept.set(text.body, made);
      bytes += cost;
    }
    return { ...compiled, html: fillSlots(compiled.html, targets, escapeHtml), twin: fillSlots(compiled.twin, targets, twinTarget) };
  };
}

/** A text's fingerprint when it is a source's (see CompiledText): made on the whole text, so only where a record needs it. */
function fingerprintOf(text: PageText): string {
  return text.source ? sourceFingerprint(text) : '';
}

/** A link host's answer as the shared HTML holds it: a slot, or the href itself when it has no path. */
function slotFor(href: string, index: number): string {
  return href.startsWith('#') || href.startsWith('?') ? href : `${SLOT}${index}${SLOT}`;
}

/** A shared text with each slot filled: the n-th link's target, as `write` writes it where the slot is. */
function fillSlots(template: string, targets: readonly string[], write: (target: string) => string): string {
  return template.replace(SLOTS, (_, index: string) => write(targets[Number(index)]!));
}
