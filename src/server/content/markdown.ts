import MarkdownIt, { type Token } from 'markdown-it';
import type { Heading } from '../../routes/types.ts';
import { codeBlocks } from './markdown/code-blocks.ts';
import type { InternalLink, LineMessage, MarkdownEnv as Env, MarkdownLabels } from './markdown/env.ts';
import { tabs } from './markdown/tabs.ts';

export type { InternalLink, LineMessage, MarkdownLabels };

/**
 * Markdown to HTML, run once per page at start-up.
 * SECURITY: `html: false` makes markdown-it escape raw HTML instead of passing it
 * through, and its default `validateLink` drops `javascript:`/`vbscript:`/`data:`
 * (except images) URLs.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

md.use(codeBlocks).use(tabs);

// Internal links are written without a locale, in the default locale's form
// (`/docs/routing#x`); `localize` gives the page's path in the serving locale.
// Links are recorded with their line so broken ones can be reported.
md.core.ruler.push('internal_links', (state) => {
  const env = state.env as Env;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const line = (block.map?.[0] ?? 0) + env.lineOffset;
    for (const token of block.children) {
      if (token.type !== 'link_open') continue;
      const href = String(token.attrGet('href') ?? '');
      if (!href?.startsWith('/') || href.startsWith('//')) continue;
      env.links.push({ href, line });
      token.attrSet('href', env.localize(href));
    }
  }
});

// Headings get an id so `#fragment` links and the browser's scroll-to-hash work,
// and are listed (plain text, no markup) for the table of contents.
md.core.ruler.push('heading_ids', (state) => {
  const env = state.env as Env;
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  tokens.forEach((token: Token, i: number) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[i + 1];
    const base = slugify(inline?.content ?? '') || 'section';
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    const id = count ? `${base}-${count}` : base;
    token.attrSet('id', id);
    const text = plainText(inline);
    token.meta = { id, text };
    env.headings.push({ id, text, level: Number(token.tag.slice(1)) });
  });
});

// The anchor link sits next to the heading, not inside it, so the heading's text
// (what screen readers announce, and what the contents and search read) stays
// the heading alone. It is always visible: touch screens have no hover.
md.renderer.rules.heading_open = (tokens, idx, options, _env, self) => `<div class="heading">${self.renderToken(tokens, idx, options)}`;
md.renderer.rules.heading_close = (tokens, idx, options, env, self) => {
  const { id, text } = tokens[idx - 2]!.meta as { id: string; text: string };
  const label = (env as Env).labels.headingLink(text);
  const link = `<a class="heading-anchor" href="#${md.utils.escapeHtml(id)}" aria-label="${md.utils.escapeHtml(label)}">#</a>`;
  return `${self.renderToken(tokens, idx, options).trimEnd()}${link}</div>\n`;
};

// Tables and code keep their lines and scroll inside their own box instead of
// widening the page. The box is focusable and named, so a keyboard can scroll it
// and a screen reader says what it is.
md.renderer.rules.table_open = (tokens, idx, options, env, self) =>
  `${scrollBox('table-box', (env as Env).labels.table(++(env as Env).tables))}${self.renderToken(tokens, idx, options)}`;
md.renderer.rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options).trimEnd()}</div>\n`;

function scrollBox(kind: string, label: string): string {
  return `<div class="scroll-box ${kind}" role="region" tabindex="0" aria-label="${md.utils.escapeHtml(label)}">`;
}

/** A heading's text as a reader sees it: markup dropped, entities decoded, code kept. */
function plainText(inline: Token | undefined): string {
  let text = '';
  for (const child of inline?.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image') text += child.children?.map((alt) => alt.content).join('') ?? '';
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

export type RenderedMarkdown = {
  html: string;
  links: InternalLink[];
  headings: Heading[];
  tokens: Token[];
  problems: LineMessage[];
  warnings: LineMessage[];
};

/**
 * `localize` turns an internal link into its path in the serving locale; `lineOffset` is the body's first line in its file, for error reports.
 * `tokens`: the parsed page, for readers of its structure (content/sections.ts).
 */
export function renderMarkdown(
  body: string,
  options: { localize: (href: string) => string; labels: MarkdownLabels; lineOffset: number },
): RenderedMarkdown {
  const env: Env = { ...options, links: [], headings: [], problems: [], warnings: [], tables: 0, codes: 0 };
  const tokens = md.parse(body, env);
  const html = md.renderer.render(tokens, md.options, env);
  return { html, links: env.links, headings: env.headings, tokens, problems: env.problems, warnings: env.warnings };
}

/** Visible text length, for the reading-time estimate. */
export function textLength(body: string): number {
  return body
    .replace(/```[\s\S]*?```/g, '')
    .replace(/[#*_`>|[\]()-]/g, '')
    .replace(/\s+/g, ' ').length;
}
