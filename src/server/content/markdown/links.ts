import type MarkdownIt from 'markdown-it';
import { envOf, lineIn } from './env.ts';

/** A scheme (`https:`, `mailto:`) or a protocol-relative `//host`: a link off the site, left as written. */
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Every link within the site (`/docs/x`, `./other.md`, `../guides/install.md#setup`,
 * `#section`) goes through the host, which checks it and gives the href it is rendered
 * with (the target's path in the serving locale), reported at its own line.
 */
export function links(md: MarkdownIt): void {
  md.core.ruler.push('internal_links', (state) => {
    const env = envOf(state);
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      let from = 0;
      for (const token of block.children) {
        if (token.type !== 'link_open') continue;
        const href = String(token.attrGet('href') ?? '');
        if (!href || EXTERNAL.test(href)) continue;
        // markdown-it gives the href percent-encoded; the source has it as written.
        const written = safeDecode(href);
        const at = block.content.indexOf(`](${written}`, from);
        const line = lineIn(block, at === -1 ? '' : `](${written}`, env, from);
        if (at !== -1) from = at + 1;
        token.attrSet('href', env.link(written, line));
      }
    }
  });
}

export function safeDecode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}
