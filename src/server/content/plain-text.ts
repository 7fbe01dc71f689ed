import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';

// Front matter text (a page's description) as the reader sees it once rendered:
// authors write `tar` or **bold** there as in the body, but <meta> content, Open
// Graph, feeds and search results show text, where backticks and asterisks would
// be shown as they are. markdown-it reads the inline syntax (the same parser as the
// body, so the same rules), and only the visible text is kept.
const inline = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The visible text of one line of inline Markdown: code, emphasis, links and images become their text. */
export function plainText(markdown: string): string {
  const tokens = inline.parseInline(markdown, {})[0]?.children ?? [];
  return textOf(tokens).replace(/\s+/g, ' ').trim();
}

function textOf(tokens: readonly Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'html_inline') text += token.content;
    else if (token.type === 'image') text += textOf(token.children ?? []);
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += ' ';
  }
  return text;
}
