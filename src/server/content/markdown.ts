import MarkdownIt, { type Token } from 'markdown-it';
import type { Heading } from '../../routes/types.ts';
import { callouts } from './markdown/callouts.ts';
import { codeBlocks } from './markdown/code-blocks.ts';
import type { Env, LineMessage, MarkdownHost, MarkdownLabels } from './markdown/env.ts';
import { footnotes } from './markdown/footnotes.ts';
import { headings } from './markdown/headings.ts';
import { images } from './markdown/images.ts';
import { inlineCode } from './markdown/inline-code.ts';
import { links } from './markdown/links.ts';
import { rawHtml } from './markdown/raw-html.ts';
import { tabs } from './markdown/tabs.ts';
import { taskLists } from './markdown/task-lists.ts';

export { slugify } from './markdown/headings.ts';
export { CALLOUT_KINDS, type CalloutKind, type LineMessage, type MarkdownHost, type MarkdownLabels } from './markdown/env.ts';

/**
 * Markdown to HTML, run once per page at start-up, one rule per file under markdown/.
 * SECURITY: raw HTML passes only through the allowlist of markdown/raw-html.ts (every
 * other tag is escaped), and markdown-it's default `validateLink` drops
 * `javascript:`/`vbscript:`/`data:` (except images) URLs.
 */
const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
// Raw HTML is sanitized first, so the rules after it (heading names) read what the page shows.
md.use(rawHtml).use(links).use(images).use(headings).use(callouts).use(footnotes).use(taskLists).use(inlineCode).use(codeBlocks).use(tabs);

// Tables and code keep their lines and scroll inside their own box instead of
// widening the page. The box is focusable and named, so a keyboard can scroll it
// and a screen reader says what it is.
md.renderer.rules.table_open = (tokens, idx, options, env, self) =>
  `${scrollBox('table-box', (env as Env).labels.table(++(env as Env).tables))}${self.renderToken(tokens, idx, options)}`;
md.renderer.rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options).trimEnd()}</div>\n`;
function scrollBox(kind: string, label: string): string {
  return `<div class="scroll-box ${kind}" role="region" tabindex="0" aria-label="${md.utils.escapeHtml(label)}">`;
}

export type RenderedMarkdown = { html: string; headings: Heading[]; tokens: Token[]; problems: LineMessage[]; warnings: LineMessage[] };

/** A host for a page whose links and images need no checking: links as written, and an error for any image. */
export const PLAIN_HOST: MarkdownHost = {
  link: (href) => href,
  image: () => undefined,
};

/**
 * `host` checks and rewrites links and finds images (see content/site.ts); `lineOffset`
 * is the body's first line in its file, for the reports. `problems` fail the build,
 * `warnings` are printed. `tokens`: the parsed page, for readers of its structure
 * (content/sections.ts).
 */
export function renderMarkdown(
  body: string,
  options: { host?: MarkdownHost; labels: MarkdownLabels; lineOffset: number },
): RenderedMarkdown {
  const { host = PLAIN_HOST, labels, lineOffset } = options;
  const env: Env = {
    link: host.link,
    image: host.image,
    labels,
    lineOffset,
    source: body,
    headings: [],
    problems: [],
    warnings: [],
    tables: 0,
    codes: 0,
    callouts: 0,
    tasks: 0,
  };
  const tokens = md.parse(body, env);
  return {
    html: md.renderer.render(tokens, md.options, env),
    headings: env.headings,
    tokens,
    problems: env.problems,
    warnings: env.warnings,
  };
}

/** Visible text length, for the reading-time estimate. */
export function textLength(body: string): number {
  return body
    .replace(/```[\s\S]*?```/g, '')
    .replace(/[#*_`>|[\]()-]/g, '')
    .replace(/\s+/g, ' ').length;
}
