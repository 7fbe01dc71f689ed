import MarkdownIt, { type Token } from 'markdown-it';

/**
 * Markdown to HTML, run once per page at start-up.
 * SECURITY: `html: false` makes markdown-it escape raw HTML instead of passing it
 * through, and its default `validateLink` drops `javascript:`/`vbscript:`/`data:`
 * (except images) URLs.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

export type InternalLink = { href: string; line: number };

/** Set per call through markdown-it's env: the locale prefix and where links are collected. */
type Env = { locale: string; links: InternalLink[]; lineOffset: number };

// Internal links are written without a locale (`/docs/routing`); the page's locale
// is added here. Links are recorded with their line so broken ones can be reported.
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
      token.attrSet('href', `/${env.locale}${href === '/' ? '' : href}`);
    }
  }
});

// Headings get an id so `#fragment` links and the browser's scroll-to-hash work.
md.core.ruler.push('heading_ids', (state) => {
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  tokens.forEach((token: Token, i: number) => {
    if (token.type !== 'heading_open') return;
    const base = slugify(tokens[i + 1]?.content ?? '') || 'section';
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    token.attrSet('id', count ? `${base}-${count}` : base);
  });
});

/** Lower-case, letters and digits of any script kept, everything else folded to '-'. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_~]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** `tokens`: the parsed page, for readers of its structure (content/sections.ts). */
export function renderMarkdown(body: string, locale: string, lineOffset: number): { html: string; links: InternalLink[]; tokens: Token[] } {
  const env: Env = { locale, links: [], lineOffset };
  const tokens = md.parse(body, env);
  return { html: md.renderer.render(tokens, md.options, env), links: env.links, tokens };
}

/** Visible text length, for the reading-time estimate. */
export function textLength(body: string): number {
  return body
    .replace(/```[\s\S]*?```/g, '')
    .replace(/[#*_`>|[\]()-]/g, '')
    .replace(/\s+/g, ' ').length;
}
