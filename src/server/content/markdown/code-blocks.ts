import type MarkdownIt from 'markdown-it';
import { escapeHtml, highlight, languageName } from './highlighter.ts';
import type { MarkdownEnv } from './env.ts';

/**
 * Fenced code, highlighted at build time (highlighter.ts), in a box with a header:
 * the title, the language's name, and a copy button that the page's lazy script
 * (src/client/code-blocks.ts) shows; without JavaScript it stays hidden.
 *
 * The fence's info string: the language, then options in any order:
 * - `{1,3-5}` marks those lines;
 * - `title="src/app.ts"` names the block;
 * - `showLineNumbers` (or `:line-numbers`) numbers the lines (by CSS, so they are never copied).
 * Diff lines: in the `diff` language, lines that start with `+` or `-`; in any language,
 * a trailing comment `// [!code ++]` or `# [!code --]` (any comment style), which is
 * removed from the shown line. `[!!code ++]` is shown as `[!code ++]` and marks nothing,
 * so a page can show the notation's source (Shiki's escape).
 * Code stays left-to-right in right-to-left pages (`dir="ltr"`).
 */
export function codeBlocks(md: MarkdownIt): void {
  md.renderer.rules.fence = (tokens, idx, _options, env: MarkdownEnv) => {
    const token = tokens[idx]!;
    const line = (token.map?.[0] ?? 0) + env.lineOffset;
    return renderCode(
      token.content,
      parseFenceInfo(token.info, (message) => env.warnings.push({ line, message })),
      env,
      line,
    );
  };
  md.renderer.rules.code_block = (tokens, idx, _options, env: MarkdownEnv) => {
    const token = tokens[idx]!;
    return renderCode(token.content, { lang: '', marks: new Set(), title: '', lineNumbers: false }, env, 0);
  };
}

export type FenceInfo = { lang: string; marks: Set<number>; title: string; lineNumbers: boolean };

/** The fence's info string (see codeBlocks); `warn` hears of options it does not know. */
export function parseFenceInfo(info: string, warn: (message: string) => void): FenceInfo {
  const result: FenceInfo = { lang: '', marks: new Set(), title: '', lineNumbers: false };
  const options = /\{[^}]*\}|\w[\w-]*=(?:"[^"]*"|'[^']*'|\S*)|\S+/g;
  let first = true;
  for (const [option] of info.trim().matchAll(options)) {
    if (option.startsWith('{')) {
      for (const range of option.slice(1, -1).split(',')) {
        const [, from, to] = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(range) ?? [];
        if (!from) {
          warn(`line marks ${option}: write line numbers and ranges, like {1,3-5}`);
          break;
        }
        for (let n = Number(from); n <= Number(to ?? from) && n - Number(from) < 10_000; n++) result.marks.add(n);
      }
    } else if (option.startsWith('title=')) result.title = option.slice(6).replace(/^(["'])(.*)\1$/, '$2');
    else if (option === 'showLineNumbers' || option === ':line-numbers') result.lineNumbers = true;
    else if (first && !option.includes('=')) result.lang = option;
    else warn(`unknown code fence option "${option}" (known: {1,3-5}, title="…", showLineNumbers)`);
    first = false;
  }
  return result;
}

/** Names authors give code that is not in any language: plain text, without a warning. */
const PLAIN_TEXT = new Set(['text', 'txt', 'plain', 'plaintext']);

/** `// [!code ++]`, `# [!code --]`, `<!-- [!code ++] -->`, `/* [!code --] *\/`, `-- [!code ++]` at a line's end. */
const NOTATION = /\s*(?:\/\/|#|<!--|\/\*|--|;)\s*\[!code (\+\+|--)\]\s*(?:-->|\*\/)?\s*$/;
/** The same with `[!!code`: the notation written out, shown with one `!`. */
const ESCAPED_NOTATION = /((?:\/\/|#|<!--|\/\*|--|;)\s*\[!)!(code (?:\+\+|--)\]\s*(?:-->|\*\/)?\s*)$/;

function renderCode(content: string, info: FenceInfo, env: MarkdownEnv, line: number): string {
  const source = content.endsWith('\n') ? content.slice(0, -1) : content;
  const diffs: ('add' | 'remove' | '')[] = [];
  const isDiff = info.lang.toLowerCase() === 'diff';
  const code = source
    .split('\n')
    .map((text) => {
      const notation = NOTATION.exec(text);
      if (notation) {
        diffs.push(notation[1] === '++' ? 'add' : 'remove');
        return text.slice(0, notation.index);
      }
      if (ESCAPED_NOTATION.test(text)) {
        diffs.push('');
        return text.replace(ESCAPED_NOTATION, '$1$2');
      }
      diffs.push(isDiff && /^\+(?!\+\+ )/.test(text) ? 'add' : isDiff && /^-(?!-- )/.test(text) ? 'remove' : '');
      return text;
    })
    .join('\n');

  let lines: string[] | null = null;
  if (info.lang && !PLAIN_TEXT.has(info.lang.toLowerCase())) {
    const result = highlight(code, info.lang);
    if (result.kind === 'highlighted') lines = result.lines;
    else if (result.kind === 'unknown')
      env.warnings.push({ line, message: `code in "${info.lang}", a language that is not highlighted: shown as plain text` });
    else
      env.warnings.push({
        line,
        message: 'code block too large to highlight (over 2,000 lines or a line over 10,000 characters): shown as plain text',
      });
  }
  lines ??= code.split('\n').map(escapeHtml);

  const body = lines
    .map((html, i) => {
      const classes = ['line'];
      if (info.marks.has(i + 1)) classes.push('marked');
      if (diffs[i]) classes.push(diffs[i]!);
      return `<span class="${classes.join(' ')}">${html}</span>`;
    })
    .join('\n');
  const name = info.lang && (PLAIN_TEXT.has(info.lang.toLowerCase()) ? 'Text' : (languageName(info.lang) ?? info.lang));
  const head =
    (info.title ? `<span class="code-title">${escapeHtml(info.title)}</span>` : '') +
    (name ? `<span class="code-lang">${escapeHtml(name)}</span>` : '') +
    `<button type="button" class="code-copy" data-copied="${escapeHtml(env.labels.codeCopied())}" hidden>${escapeHtml(env.labels.copyCode())}</button>`;
  const label = env.labels.code(++env.codes);
  const pre = `<pre class="code${info.lineNumbers ? ' line-numbers' : ''}" dir="ltr" translate="no"><code>${body}</code></pre>`;
  return `<div class="code-block"><div class="code-head">${head}</div><div class="scroll-box code-box" role="region" tabindex="0" aria-label="${escapeHtml(label)}">${pre}</div></div>\n`;
}
