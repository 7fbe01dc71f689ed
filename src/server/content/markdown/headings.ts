import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { envOf } from './env.ts';
import { htmlText } from './raw-html.ts';

/** `## Setup {#setup}`: the id an author gives a heading, kept by translations so `#setup` works in every locale. */
const CUSTOM_ID = /\s*\{#([^\s{}]*)\}\s*$/;
const VALID_ID = /^[\p{L}\p{N}_-]+$/u;

/**
 * Headings get an id (their own `{#id}`, else one made from their text) so `#fragment`
 * links and the browser's scroll-to-hash work, and are listed (plain text, no markup)
 * for the table of contents. The anchor link sits next to the heading, not inside it,
 * so the heading's text (what screen readers announce, and what the contents and search
 * read) stays the heading alone. It is always visible: touch screens have no hover.
 */
export function headings(md: MarkdownIt): void {
  md.core.ruler.push('heading_ids', (state) => {
    const env = envOf(state);
    const seen = new Map<string, number>();
    const custom = new Map<string, number>();
    const tokens = state.tokens;
    // Custom ids first: a made id steps around them rather than the other way round.
    const given = tokens.map((token, i) => (token.type === 'heading_open' ? customId(tokens[i + 1]) : undefined));
    for (const [i, id] of given.entries()) {
      if (id === undefined) continue;
      const line = (tokens[i]!.map?.[0] ?? 0) + env.lineOffset;
      if (!VALID_ID.test(id)) {
        env.problems.push({ line, message: `heading id {#${id}} may hold only letters, digits, "-" and "_"` });
      } else if (custom.has(id)) {
        env.problems.push({ line, message: `heading id {#${id}} is already given to the heading on line ${custom.get(id)}` });
      }
      custom.set(id, line);
    }
    tokens.forEach((token: Token, i: number) => {
      if (token.type !== 'heading_open') return;
      const inline = tokens[i + 1];
      let id = given[i];
      if (id === undefined) {
        const base = slugify(inline?.content ?? '') || 'section';
        let count = seen.get(base) ?? 0;
        do id = count ? `${base}-${count}` : base;
        while (custom.has(id) && ++count);
        seen.set(base, count + 1);
      }
      token.attrSet('id', id);
      const text = plainText(inline);
      token.meta = { id, text };
      env.headings.push({ id, text, level: Number(token.tag.slice(1)) });
    });
  });

  md.renderer.rules.heading_open = (tokens, idx, options, _env, self) => `<div class="heading">${self.renderToken(tokens, idx, options)}`;
  md.renderer.rules.heading_close = (tokens, idx, options, env, self) => {
    const { id, text } = tokens[idx - 2]!.meta as { id: string; text: string };
    const label = envOf({ env }).labels.headingLink(text);
    const link = `<a class="heading-anchor" href="#${md.utils.escapeHtml(id)}" aria-label="${md.utils.escapeHtml(label)}">#</a>`;
    return `${self.renderToken(tokens, idx, options).trimEnd()}${link}</div>\n`;
  };
}

/** The `{#id}` ending a heading's text, removed from it; undefined when it has none. */
function customId(inline: Token | undefined): string | undefined {
  const match = inline?.content.match(CUSTOM_ID);
  const last = inline?.children?.at(-1);
  if (!inline || !match || last?.type !== 'text' || !CUSTOM_ID.test(last.content)) return undefined;
  inline.content = inline.content.slice(0, match.index);
  last.content = last.content.replace(CUSTOM_ID, '');
  return match[1]!;
}

/** A heading's text as a reader sees it: markup dropped, entities decoded, code kept. */
function plainText(inline: Token | undefined): string {
  let text = '';
  for (const child of inline?.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image') text += child.children?.map((alt) => alt.content).join('') ?? '';
    else if (child.type === 'html_inline') text += htmlText(child.content);
  }
  return text.trim();
}

/** Lower-case, letters and digits of any script kept, everything else folded to '-'. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_~]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
