import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { type Env, envOf, lineIn } from './env.ts';

/** The raw HTML a page may use; every other tag is shown as text, as written. */
const ALLOWED_TAGS = ['details', 'summary', 'kbd', 'sup', 'sub', 'br'];
/** `<details open>` is the only attribute kept: none that runs script, loads anything or styles. */
const ALLOWED_ATTRIBUTES: Record<string, string[]> = { details: ['open'] };
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  disallowedTagsMode: 'escape',
  allowedSchemes: [],
  allowProtocolRelative: false,
};
/** Between the pieces of a page's raw HTML while they are sanitized as one (Unicode noncharacters, never in text). */
const JOIN = '\uFDD0';
const TAG = /<(\/?)([A-Za-z][\w:-]*)([^>]*)>|<!--[\s\S]*?-->|<!?[A-Za-z?][^>]*>/g;
const ALLOWED = new RegExp(`<\\/?(${ALLOWED_TAGS.join('|')})\\b`, 'i');
const ATTRIBUTE = /([^\s=/>"']+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g;

/**
 * Raw HTML in a page goes through an allowlist (sanitize-html): `<details>`/`<summary>`,
 * `<kbd>`, `<sup>`, `<sub>` and `<br>` are kept without attributes (but `open`); any
 * other tag is escaped and shows as written (a piece holding allowed tags too is shown
 * as the sanitizer writes it, comments dropped). Markdown splits a page's raw
 * HTML into pieces (an opening tag, markdown, its closing tag), so all pieces of a page
 * are sanitized together, as the one document they make, and put back in place. What
 * the allowlist changes is a build warning naming it, at its line.
 */
export function rawHtml(md: MarkdownIt): void {
  md.core.ruler.push('raw_html', (state) => {
    const env = envOf(state);
    const pieces: { token: Token; line: number }[] = [];
    for (const token of state.tokens) {
      if (token.type === 'html_block') pieces.push({ token, line: (token.map?.[0] ?? 0) + env.lineOffset });
      if (token.type !== 'inline' || !token.children) continue;
      let from = 0;
      for (const child of token.children) {
        if (child.type !== 'html_inline') continue;
        const at = token.content.indexOf(child.content, from);
        pieces.push({ token: child, line: lineIn(token, child.content, env, from) });
        if (at !== -1) from = at + child.content.length;
      }
    }
    for (const piece of pieces) warnDropped(piece.token.content, piece.line, env);
    // A piece with no allowed tag at all is shown exactly as written; the others are sanitized together.
    const mixed = pieces.filter((piece) => {
      if (ALLOWED.test(piece.token.content)) return true;
      piece.token.content = md.utils.escapeHtml(piece.token.content);
      return false;
    });
    if (!mixed.length) return;
    sanitizeTogether(mixed, md);
  });
}

function sanitizeTogether(pieces: { token: Token }[], md: MarkdownIt): void {
  const joined = pieces.map((piece) => piece.token.content.replaceAll(JOIN, '')).join(JOIN);
  const clean = sanitizeHtml(joined, OPTIONS).split(JOIN);
  pieces.forEach((piece, i) => {
    // The joins are text, which the sanitizer keeps; should one go missing, nothing raw survives.
    piece.token.content = clean.length === pieces.length ? clean[i]! : md.utils.escapeHtml(piece.token.content);
  });
}

/** A warning for each tag, attribute or comment of a piece that the allowlist escapes or drops. */
function warnDropped(html: string, line: number, env: Env): void {
  const dropped = new Set<string>();
  for (const match of html.matchAll(TAG)) {
    const [whole, closing, name, rest] = match;
    if (whole.startsWith('<!--')) {
      dropped.add('an HTML comment (not allowed)');
    } else if (!name || !ALLOWED_TAGS.includes(name.toLowerCase())) {
      dropped.add(`<${closing ?? ''}${name ?? whole.slice(1, -1)}> (not allowed: shown as text)`);
    } else {
      const allowed = ALLOWED_ATTRIBUTES[name.toLowerCase()] ?? [];
      for (const [, attribute] of (rest ?? '').matchAll(ATTRIBUTE)) {
        if (!allowed.includes(attribute!.toLowerCase())) dropped.add(`the attribute ${attribute} on <${name}> (removed)`);
      }
    }
  }
  for (const what of dropped)
    env.warnings.push({ line, message: `raw HTML: ${what}; allowed are ${ALLOWED_TAGS.map((tag) => `<${tag}>`).join(', ')}` });
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The text a reader sees of a sanitized piece: kept tags dropped, escaped ones as written (for headings' names and search). */
export function htmlText(sanitized: string): string {
  return sanitized.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity]!);
}
