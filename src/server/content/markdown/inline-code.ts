import type MarkdownIt from 'markdown-it';

/**
 * Inline code is always left to right and isolated from the text around it
 * (`dir="ltr"`, which also isolates it): in an Arabic sentence, `{{name}}` or
 * `npm run build` would otherwise be reordered by the bidi algorithm.
 */
export function inlineCode(md: MarkdownIt): void {
  md.renderer.rules.code_inline = (tokens, idx) => `<code dir="ltr">${md.utils.escapeHtml(tokens[idx]!.content)}</code>`;
}
