import { hash } from 'node:crypto';
import Prism from 'prismjs';
// Each component adds its grammar to the Prism object that `prismjs` made global;
// they are imported in the order of their dependencies (the package's components.json).
import 'prismjs/components/prism-bash.js';
import 'prismjs/components/prism-shell-session.js';
import 'prismjs/components/prism-diff.js';
import 'prismjs/components/prism-docker.js';
import 'prismjs/components/prism-ini.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-jsx.js';
import 'prismjs/components/prism-typescript.js';
import 'prismjs/components/prism-tsx.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-markdown.js';
import 'prismjs/components/prism-nginx.js';
import 'prismjs/components/prism-python.js';
import 'prismjs/components/prism-sql.js';
import 'prismjs/components/prism-toml.js';
import prismPackage from 'prismjs/package.json' with { type: 'json' };
import { readCachedBlock, writeCachedBlock } from './highlight-cache.ts';

/**
 * Code highlighted at build time with Prism's grammars, into spans with classes: the
 * colours are CSS custom properties in the stylesheet, one set for light and one for
 * dark (src/client/code-colours.css), so a page carries neither highlighter code nor inline
 * styles (the CSP allows no `style` attribute).
 *
 * Prism rather than Shiki (TextMate grammars, as VS Code): on a 3-line TypeScript block
 * Shiki took about 2 ms with either of its regex engines against 0.17 ms for Prism, and
 * a site of 10,000 pages with a block each could not build within its budget; Prism's
 * grammars tell apart what our six colours show (keywords and operators, strings,
 * comments, constants and numbers, functions and types, parameters and variables).
 * Prism is synchronous (Markdown compiles synchronously) and loads in about 0.1 s.
 */
type Language = { grammar: string; name: string; aliases: string[] };
const LANGUAGES: Language[] = [
  { grammar: 'css', name: 'CSS', aliases: ['css'] },
  { grammar: 'diff', name: 'Diff', aliases: ['diff', 'patch'] },
  { grammar: 'docker', name: 'Dockerfile', aliases: ['docker', 'dockerfile'] },
  { grammar: 'markup', name: 'HTML', aliases: ['html', 'htm'] },
  { grammar: 'ini', name: 'INI', aliases: ['ini', 'properties'] },
  { grammar: 'javascript', name: 'JavaScript', aliases: ['javascript', 'js', 'cjs', 'mjs'] },
  { grammar: 'json', name: 'JSON', aliases: ['json'] },
  // Prism's JSON grammar reads comments as well.
  { grammar: 'json', name: 'JSON with Comments', aliases: ['jsonc', 'json5'] },
  { grammar: 'jsx', name: 'JSX', aliases: ['jsx'] },
  { grammar: 'markdown', name: 'Markdown', aliases: ['markdown', 'md'] },
  { grammar: 'nginx', name: 'Nginx', aliases: ['nginx'] },
  { grammar: 'python', name: 'Python', aliases: ['python', 'py'] },
  { grammar: 'bash', name: 'Shell', aliases: ['shellscript', 'bash', 'sh', 'shell', 'zsh'] },
  { grammar: 'shell-session', name: 'Shell Session', aliases: ['shellsession', 'console', 'sh-session'] },
  { grammar: 'sql', name: 'SQL', aliases: ['sql'] },
  { grammar: 'toml', name: 'TOML', aliases: ['toml'] },
  { grammar: 'tsx', name: 'TSX', aliases: ['tsx'] },
  { grammar: 'typescript', name: 'TypeScript', aliases: ['typescript', 'ts', 'cts', 'mts'] },
  { grammar: 'markup', name: 'XML', aliases: ['xml', 'svg'] },
  { grammar: 'yaml', name: 'YAML', aliases: ['yaml', 'yml'] },
];
const BY_ALIAS = new Map(LANGUAGES.flatMap((language) => language.aliases.map((alias) => [alias, language] as const)));

/** Past these sizes a block stays plain text: regex grammars can take quadratic time on long input. */
export const MAX_HIGHLIGHTED_LINES = 2000;
export const MAX_HIGHLIGHTED_LINE_LENGTH = 10_000;

/** A language's display name (`TypeScript` for `ts`), or undefined when it is not one we highlight. */
export function languageName(lang: string): string | undefined {
  return BY_ALIAS.get(lang.toLowerCase())?.name;
}

export type Highlighted =
  /** Each line's inner HTML (escaped text in `<span class="tk-…">`), in order. */
  | { kind: 'highlighted'; lines: string[] }
  /** A language we do not highlight. */
  | { kind: 'unknown' }
  /** Over the size budget: shown as plain text. */
  | { kind: 'too-large' };

/**
 * The theme: Prism's token types (and their aliases) as the classes the stylesheet
 * colours (src/client/code-colours.css). A few, since every page's first load carries them;
 * the rest (punctuation, a diff's inserted text, which its line's background shows)
 * are the text's colour. Operators take the keywords' colour, as in GitHub's themes.
 */
const CLASSES: Record<string, string> = {
  keyword: 'tk-keyword',
  operator: 'tk-keyword',
  atrule: 'tk-keyword',
  rule: 'tk-keyword',
  important: 'tk-keyword',
  tag: 'tk-keyword',
  instruction: 'tk-keyword',
  directive: 'tk-keyword',
  string: 'tk-string',
  char: 'tk-string',
  'attr-value': 'tk-string',
  regex: 'tk-string',
  url: 'tk-string',
  code: 'tk-string',
  comment: 'tk-comment',
  prolog: 'tk-comment',
  doctype: 'tk-comment',
  cdata: 'tk-comment',
  number: 'tk-constant',
  boolean: 'tk-constant',
  constant: 'tk-constant',
  symbol: 'tk-constant',
  builtin: 'tk-constant',
  property: 'tk-constant',
  key: 'tk-constant',
  'attr-name': 'tk-constant',
  entity: 'tk-constant',
  function: 'tk-function',
  'class-name': 'tk-function',
  selector: 'tk-function',
  decorator: 'tk-function',
  parameter: 'tk-parameter',
  variable: 'tk-parameter',
};
/** Token types whose text is code again (an interpolation in a string): they do not take the colour of the token around them. */
const UNCOLOURED = new Set(['interpolation', 'punctuation', 'interpolation-punctuation']);

/** Changed whenever the HTML made from the same tokens changes: a cached block of another format is not used. */
const FORMAT = 1;
/** What besides the language and the code decides a block's HTML: blocks cached under other values are not used. */
const CACHE_SALT = `polysite-highlight ${FORMAT}\0prismjs ${prismPackage.version}\0${JSON.stringify(CLASSES)}\0${[...UNCOLOURED]}`;

/**
 * Highlighted blocks by language and content, so a block that many pages share (a
 * page copied into each locale's fallback, an install command on every page) is
 * highlighted once. Bounded in bytes: the oldest entries go first.
 */
const MEMO_BYTES = 16 * 1024 * 1024;
const memo = new Map<string, { lines: string[]; bytes: number }>();
let memoBytes = 0;

export function highlight(code: string, lang: string): Highlighted {
  const language = BY_ALIAS.get(lang.toLowerCase());
  if (!language) return { kind: 'unknown' };
  if (tooLarge(code)) return { kind: 'too-large' };
  const key = hash('sha256', `${CACHE_SALT}\0${language.grammar}\0${code}`, 'hex');
  const known = memo.get(key);
  if (known) return { kind: 'highlighted', lines: known.lines };
  let lines = readCachedBlock(key);
  if (!lines) {
    lines = toLines(Prism.tokenize(code, Prism.languages[language.grammar]!));
    writeCachedBlock(key, lines);
  }
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

/** The class of a token: its own type's, else its aliases', else (unless it is code again) the one of the token around it. */
function tokenClass(token: Prism.Token, around: string): string {
  const own = CLASSES[token.type];
  if (own) return own;
  const aliases = typeof token.alias === 'string' ? [token.alias] : (token.alias ?? []);
  for (const alias of aliases) if (CLASSES[alias]) return CLASSES[alias];
  return UNCOLOURED.has(token.type) ? '' : around;
}

/**
 * The token tree as each line's HTML: text in the foreground colour stays bare, the
 * rest is wrapped in its colour's class; neighbours of one colour are joined, and so
 * is white space with the run before it.
 */
function toLines(tokens: Prism.TokenStream): string[] {
  const lines: string[] = [];
  let out = '';
  let open = '';
  let text = '';
  const flush = () => {
    if (text) out += open ? `<span class="${open}">${escapeHtml(text)}</span>` : escapeHtml(text);
    text = '';
  };
  const add = (content: string, kind: string) => {
    const parts = content.split('\n');
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) {
        flush();
        lines.push(out);
        out = '';
        open = '';
      }
      const part = parts[i]!;
      if (kind !== open && part.trim()) {
        flush();
        open = kind;
      }
      text += part;
    }
  };
  const walk = (stream: Prism.TokenStream, around: string) => {
    if (typeof stream === 'string') add(stream, around);
    else if (Array.isArray(stream)) for (const item of stream) walk(item, around);
    else walk(stream.content, tokenClass(stream, around));
  };
  walk(tokens, '');
  flush();
  lines.push(out);
  return lines;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[char]};`);
}
