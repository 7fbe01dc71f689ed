import type MarkdownIt from 'markdown-it';
import type { PluginSimple } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { envOf } from './env.ts';

/**
 * Footnotes (`text[^1]` and `[^1]: note`), by markdown-it-footnote, with the notes in a
 * section named in the page's language and each way back labelled for screen readers
 * (the plugin's bare arrow says nothing).
 */
export function footnotes(md: MarkdownIt): void {
  // The plugin's types are written against an older markdown-it's; its code works with this one.
  md.use(footnote as unknown as PluginSimple);
  md.renderer.rules.footnote_block_open = (_tokens, _idx, _options, env) =>
    `<section class="footnotes" aria-label="${md.utils.escapeHtml(envOf({ env }).labels.footnotes)}">\n<ol class="footnotes-list">\n`;
  md.renderer.rules.footnote_anchor = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const meta = token.meta as { id: number; subId: number };
    let id = self.rules.footnote_anchor_name!(tokens, idx, options, env, self);
    if (meta.subId > 0) id += `:${meta.subId}`;
    const label = envOf({ env }).labels.footnoteBack(meta.id + 1);
    return ` <a href="#fnref${id}" class="footnote-backref" aria-label="${md.utils.escapeHtml(label)}">\u21a9\uFE0E</a>`;
  };
}
