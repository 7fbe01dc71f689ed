import type MarkdownIt from 'markdown-it';
import type { StateBlock } from 'markdown-it';
import { parseFenceInfo } from './code-blocks.ts';
import { escapeHtml, languageName } from './highlighter.ts';
import type { MarkdownEnv } from './env.ts';

/**
 * Tab sets, in two forms:
 *
 *     :::tabs key=pkg           :::code-group
 *     == npm                    ```sh title="npm"
 *     Any Markdown.             npm install polysite
 *     == pnpm                   ```
 *     More Markdown.            ```sh title="pnpm"
 *     :::                       pnpm add polysite
 *                               ```
 *                               :::
 *
 * A code group's tabs are its fences, each labelled by its title (else its language).
 * The HTML is every panel under its label, readable as it is without JavaScript; the
 * page's lazy script (src/client/code-blocks.ts) turns each set into an ARIA tab list.
 * `key=name` joins the sets of that name across the site: choosing a tab in one
 * chooses the same label in all, and the choice is remembered.
 * A set without its closing `:::` is a build error, as is text before the first `==`.
 */
export function tabs(md: MarkdownIt): void {
  md.block.ruler.before('fence', 'tabs', tabSet, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.renderer.rules.tabs_open = (tokens, idx) => {
    const { kind, key } = tokens[idx]!.meta as { kind: string; key: string };
    return `<div class="tabs${kind === 'code-group' ? ' code-group' : ''}"${key ? ` data-tabs-key="${escapeHtml(key)}"` : ''}>\n`;
  };
  md.renderer.rules.tabs_close = () => '</div>\n';
  md.renderer.rules.tab_open = (tokens, idx) =>
    `<div class="tab-panel"><p class="tab-label">${escapeHtml((tokens[idx]!.meta as { label: string }).label)}</p>\n`;
  md.renderer.rules.tab_close = () => '</div>\n';
}

const OPENER = /^:::\s*(tabs|code-group)(?:\s+(.*?))?\s*$/;
const KEY = /^key=([\w-]{1,64})$/;

function tabSet(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const opener = OPENER.exec(lineText(state, startLine));
  if (!opener) return false;
  if (silent) return true;
  const env = state.env as MarkdownEnv;
  const problem = (line: number, message: string) => env.problems.push({ line: line + env.lineOffset, message });
  const [, kind, params = ''] = opener as unknown as [string, 'tabs' | 'code-group', string | undefined];

  let key = '';
  for (const param of params.split(/\s+/).filter(Boolean)) {
    const match = KEY.exec(param);
    if (match) key = match[1]!;
    else problem(startLine, `:::${kind} takes only key=name (letters, digits, - and _), not "${param}"`);
  }

  // The closing `:::`, with containers inside counted and fenced code skipped. Labels
  // (`== npm`) count only at this set's own level, outside code.
  let depth = 1;
  let fence: string | null = null;
  let close = -1;
  const labels: number[] = [];
  let line = startLine + 1;
  for (; line < endLine; line++) {
    const text = lineText(state, line);
    if (text && state.sCount[line]! < state.blkIndent) break; // the end of the list or quote it sits in
    if (fence) {
      if (text.startsWith(fence) && /^([`~])\1*\s*$/.test(text)) fence = null;
      continue;
    }
    const opensFence = /^(`{3,}|~{3,})/.exec(text);
    if (opensFence) fence = opensFence[1]!;
    else if (/^:::+\s*$/.test(text)) {
      if (--depth === 0) {
        close = line;
        break;
      }
    } else if (/^:::+\s*\S/.test(text)) depth++;
    else if (depth === 1 && kind === 'tabs' && /^==\s+\S/.test(text)) labels.push(line);
  }
  if (close === -1) {
    problem(startLine, `:::${kind} is not closed: end it with a line of ":::"`);
    close = line;
  }

  const open = state.push('tabs_open', 'div', 1);
  open.meta = { kind, key };
  open.map = [startLine, close];
  open.block = true;
  if (kind === 'tabs') {
    if (!labels.length) problem(startLine, ':::tabs needs a "== Label" line before each tab\'s content');
    else if (hasText(state, startLine + 1, labels[0]!))
      problem(startLine + 1, ':::tabs has text before its first "== Label": start each tab with one');
    labels.forEach((labelLine, i) => {
      const tab = state.push('tab_open', 'div', 1);
      tab.meta = {
        label: lineText(state, labelLine)
          .replace(/^==\s+/, '')
          .trim(),
      };
      tab.map = [labelLine, labels[i + 1] ?? close];
      tokenize(state, labelLine + 1, labels[i + 1] ?? close);
      state.push('tab_close', 'div', -1);
    });
  } else {
    const first = state.tokens.length;
    tokenize(state, startLine + 1, close);
    const inner = state.tokens.splice(first);
    for (const token of inner) {
      if (token.type !== 'fence') {
        if (token.level === open.level + 1 && token.nesting !== -1)
          problem(token.map?.[0] ?? startLine, ':::code-group holds only fenced code blocks, each with a title="…"');
        continue;
      }
      const info = parseFenceInfo(token.info, () => {});
      const tab = state.push('tab_open', 'div', 1);
      tab.meta = { label: info.title || languageName(info.lang) || info.lang || 'Code' };
      state.tokens.push(token);
      state.push('tab_close', 'div', -1);
    }
  }
  state.push('tabs_close', 'div', -1);
  state.line = close < endLine && /^:::/.test(lineText(state, close)) ? close + 1 : close;
  return true;
}

/** Block Markdown between two lines, as the content of this container. */
function tokenize(state: StateBlock, from: number, to: number): void {
  const { parentType, lineMax } = state;
  state.parentType = 'tabs' as typeof parentType;
  state.lineMax = to;
  state.md.block.tokenize(state, from, to);
  state.parentType = parentType;
  state.lineMax = lineMax;
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

function hasText(state: StateBlock, from: number, to: number): boolean {
  for (let line = from; line < to; line++) if (lineText(state, line).trim()) return true;
  return false;
}
