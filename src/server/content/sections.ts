// A page's text cut at its headings, as plain text (never HTML): what search indexes
// and quotes. Read from markdown-it's tokens after the heading ids are set, so a
// section's id is the `id` of its heading in the rendered page, and a search result
// can link straight to it.
import type { Token } from 'markdown-it';
import { htmlText } from './markdown/raw-html.ts';

/** `id` '' and heading '' is the text before the first heading (the page's top). */
export type Section = { id: string; heading: string; text: string };

export function sectionsOf(tokens: readonly Token[]): Section[] {
  const sections: Section[] = [];
  let current = { id: '', heading: '', parts: [] as string[] };
  const close = () => sections.push({ id: current.id, heading: current.heading, text: squash(current.parts.join(' ')) });

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'heading_open') {
      close();
      const inline = tokens[i + 1];
      current = { id: String(token.attrGet('id') ?? ''), heading: squash(inlineText(inline, true)), parts: [] };
      i += 2; // the heading's inline token and heading_close
    } else if (token.type === 'inline') {
      current.parts.push(inlineText(token, false));
    } else if (token.type === 'html_block') {
      current.parts.push(htmlText(token.content));
    } else if (token.type === 'fence' || token.type === 'code_block') {
      current.parts.push(token.content);
    }
  }
  close();
  return sections;
}

/** The visible text of an inline token. In a heading, a `#` link (an anchor to the heading itself) is not its text. */
function inlineText(inline: Token | undefined, heading: boolean): string {
  if (!inline?.children) return inline?.content ?? '';
  let text = '';
  let skipping = false;
  for (const child of inline.children) {
    if (heading && child.type === 'link_open' && String(child.attrGet('href') ?? '').startsWith('#')) skipping = true;
    else if (child.type === 'link_close') skipping = false;
    else if (skipping) continue;
    else if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'image') text += child.content;
    else if (child.type === 'html_inline') text += htmlText(child.content);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
  }
  return text;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
