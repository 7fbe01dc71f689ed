import { createHash } from 'node:crypto';
import { createCssVariablesTheme, createHighlighterCoreSync, type HighlighterCore, type ThemedToken } from '@shikijs/core';
import { createJavaScriptRegexEngine } from '@shikijs/engine-javascript';
import css from '@shikijs/langs/css';
import diff from '@shikijs/langs/diff';
import dockerfile from '@shikijs/langs/dockerfile';
import html from '@shikijs/langs/html';
import ini from '@shikijs/langs/ini';
import javascript from '@shikijs/langs/javascript';
import json from '@shikijs/langs/json';
import jsonc from '@shikijs/langs/jsonc';
import jsx from '@shikijs/langs/jsx';
import markdown from '@shikijs/langs/markdown';
import nginx from '@shikijs/langs/nginx';
import python from '@shikijs/langs/python';
import shellscript from '@shikijs/langs/shellscript';
import shellsession from '@shikijs/langs/shellsession';
import sql from '@shikijs/langs/sql';
import toml from '@shikijs/langs/toml';
import tsx from '@shikijs/langs/tsx';
import typescript from '@shikijs/langs/typescript';
import xml from '@shikijs/langs/xml';
import yaml from '@shikijs/langs/yaml';

/**
 * Code highlighted at build time with Shiki's grammars (the ones VS Code uses), into
 * spans with classes: the colours are CSS custom properties in the stylesheet, one set
 * for light and one for dark (src/client/styles.css), so a page carries neither
 * highlighter code nor inline styles (the CSP allows no `style` attribute).
 *
 * Shiki's fine-grained core with only these languages, and its JavaScript regex
 * engine: made synchronously (Markdown compiles synchronously), no WebAssembly, and
 * it tokenized our docs as Oniguruma does, in about 60 % of the time.
 */
const LANGUAGES = [
  css,
  diff,
  dockerfile,
  html,
  ini,
  javascript,
  json,
  jsonc,
  jsx,
  markdown,
  nginx,
  python,
  shellscript,
  shellsession,
  sql,
  toml,
  tsx,
  typescript,
  xml,
  yaml,
];

/** Past these sizes a block stays plain text: TextMate grammars can take quadratic time on long input. */
export const MAX_HIGHLIGHTED_LINES = 2000;
export const MAX_HIGHLIGHTED_LINE_LENGTH = 10_000;

/** The theme names its colours `var(--tk-token-keyword)` and so on; each becomes the class `tk-keyword`. */
const THEME = createCssVariablesTheme({ name: 'polysite', variablePrefix: '--tk-', fontStyle: false });

// One highlighter per thread, made at the first fenced block with a language and
// kept for the whole build (or the dev server's life); each grammar is compiled when
// first used.
let highlighter: HighlighterCore | null = null;
function shiki(): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({ themes: [THEME], langs: LANGUAGES, engine: createJavaScriptRegexEngine() });
  return highlighter;
}

/** A language's display name (`TypeScript` for `ts`), or undefined when it is not one we highlight. */
export function languageName(lang: string): string | undefined {
  const id = lang.toLowerCase();
  const found = LANGUAGES.flat().find((grammar) => grammar.name === id || grammar.aliases?.includes(id));
  return found && (found.displayName ?? found.name);
}

export type Highlighted =
  /** Each line's inner HTML (escaped text in `<span class="tk-…">`), in order. */
  | { kind: 'highlighted'; lines: string[] }
  /** A language we do not highlight. */
  | { kind: 'unknown' }
  /** Over the size budget: shown as plain text. */
  | { kind: 'too-large' };

/**
 * Highlighted blocks by language and content, so a block that many pages share (a
 * page copied into each locale's fallback, an install command on every page) is
 * highlighted once. Bounded in bytes: the oldest entries go first.
 */
const MEMO_BYTES = 16 * 1024 * 1024;
const memo = new Map<string, { lines: string[]; bytes: number }>();
let memoBytes = 0;

export function highlight(code: string, lang: string): Highlighted {
  if (!languageName(lang)) return { kind: 'unknown' };
  if (tooLarge(code)) return { kind: 'too-large' };
  const key = createHash('sha256').update(lang.toLowerCase()).update('\0').update(code).digest('base64url');
  const known = memo.get(key);
  if (known) return { kind: 'highlighted', lines: known.lines };
  // No time limit: with one (Shiki's default is 500 ms a line), a line whose grammar is
  // still being compiled, or a busy machine, leaves the rest of the line one token, so the
  // same code came out differently from one call to the next. The size budget bounds the time.
  const tokens = shiki().codeToTokensBase(code, { lang: lang.toLowerCase(), theme: THEME.name!, tokenizeTimeLimit: 0 });
  const lines = tokens.map(lineHtml);
  remember(key, lines);
  return { kind: 'highlighted', lines };
}

function tooLarge(code: string): boolean {
  let lines = 1;
  let start = 0;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', start)) {
    if (at - start > MAX_HIGHLIGHTED_LINE_LENGTH || ++lines > MAX_HIGHLIGHTED_LINES) return true;
    start = at + 1;
  }
  return code.length - start > MAX_HIGHLIGHTED_LINE_LENGTH;
}

function remember(key: string, lines: string[]): void {
  let bytes = key.length;
  for (const line of lines) bytes += line.length * 2;
  if (bytes > MEMO_BYTES / 4) return;
  memo.set(key, { lines, bytes });
  memoBytes += bytes;
  for (const [oldest, entry] of memo) {
    if (memoBytes <= MEMO_BYTES) break;
    memo.delete(oldest);
    memoBytes -= entry.bytes;
  }
}

/**
 * The theme's colours as the classes the stylesheet colours (src/client/code-colours.css): a
 * few, since every page's first load carries them. The rest (punctuation, a diff's
 * inserted text, which its line's background shows) are the text's colour.
 */
const CLASSES: Record<string, string> = {
  'token-keyword': 'tk-keyword',
  'token-string': 'tk-string',
  'token-string-expression': 'tk-string',
  'token-link': 'tk-string',
  'token-comment': 'tk-comment',
  'token-constant': 'tk-constant',
  'token-function': 'tk-function',
  'token-parameter': 'tk-parameter',
};

/** One line's tokens as HTML: text in the foreground colour stays bare, the rest is wrapped in its colour's class; neighbours of one colour are joined. */
function lineHtml(tokens: ThemedToken[]): string {
  let out = '';
  let open = '';
  let text = '';
  const flush = () => {
    if (text) out += open ? `<span class="${open}">${escapeHtml(text)}</span>` : escapeHtml(text);
    text = '';
  };
  for (const token of tokens) {
    const name = /^var\(--tk-([a-z-]+)\)$/.exec(token.color ?? '')?.[1] ?? '';
    const kind = CLASSES[name] ?? '';
    if (kind !== open && token.content.trim()) {
      flush();
      open = kind;
    }
    text += token.content;
  }
  flush();
  return out;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[char]};`);
}
