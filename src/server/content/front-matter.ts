import { isMap, isScalar, LineCounter, parseDocument, visit, type YAMLError } from 'yaml';

/** What a page's front matter may hold. Unknown keys are an error, so typos surface. */
export type FrontMatter = {
  title: string;
  description: string;
  /** Docs: position in the sidebar among its siblings. */
  order?: number;
  /** Docs folder index: a short label for the sidebar section. */
  nav?: string;
  /** Blog posts: publication day, `YYYY-MM-DD`. */
  date?: string;
  author?: string;
  /** Blog posts: day of the last real change, `YYYY-MM-DD` (the feed's `updated`); defaults to `date`. */
  updated?: string;
  /**
   * The page's path in its locale: one segment that replaces the file's last one
   * (`ueber-uns`), or the whole path under the locale when it starts with `/`.
   * Checked with the other pages' paths in content/paths.ts.
   */
  slug?: string;
  /** A share image of the page's own, instead of its locale's (see share previews). */
  image?: string;
  /** Not published: shown by `npm run dev` only (see loadSite's `drafts`). */
  draft?: true;
  /**
   * Served at its path, but listed nowhere: not in the sidebar, previous/next, a section's
   * or the blog's list, search, the sitemap, llms.txt or feeds; and `noindex`.
   */
  unlisted?: true;
  /**
   * Words and phrases a reader may search for that the page does not say (`list files`
   * on the page about `ls`): the site's search finds the page by them as by its title.
   * Shown nowhere, and in no <meta>.
   */
  keywords?: string[];
};

const KNOWN = ['title', 'description', 'order', 'nav', 'date', 'updated', 'author', 'slug', 'image', 'draft', 'unlisted', 'keywords'];
/** Most keywords a page may have, and the longest one (characters): they are indexed in every section of the page. */
const MAX_KEYWORDS = 32;
const MAX_KEYWORD_LENGTH = 100;

/** The file line the YAML starts on, after the opening `---`. */
const YAML_FIRST_LINE = 2;

/**
 * Whether a page's text is marked `draft: true`, read without parsing it: for the
 * locales a build thread does not compile, whose files it knows only by name (the
 * thread that compiles each file checks its front matter in full).
 */
export function isDraftText(source: string): boolean {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return false;
  const end = text.indexOf('\n---', 3);
  return /^draft:[ \t]*true[ \t]*(#.*)?$/m.test(text.slice(4, end === -1 ? undefined : end));
}

/**
 * Splits `---\n<yaml>\n---\n<markdown>` and validates the YAML. Returns the body,
 * the number of lines before it (so Markdown line numbers map to the file), and
 * the file line of each front matter key. Throws a message with the file and the
 * line (from the YAML library's positions) on any problem.
 */
export function splitFrontMatter(
  source: string,
  file: string,
  memo?: FrontMatterMemo,
): { data: FrontMatter; body: string; bodyLine: number; keyLines: Readonly<Record<string, number>> } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) throw new Error(`${file}:1: missing front matter (the file must start with a --- line)`);
  const end = text.indexOf('\n---', 3);
  if (end === -1 || (text[end + 4] !== '\n' && end + 4 !== text.length)) {
    throw new Error(`${file}:1: front matter is not closed by a --- line`);
  }
  const yaml = text.slice(4, end + 1);
  const kept = memo?.get(yaml);
  if (kept !== undefined) return { ...(JSON.parse(kept) as Omit<ReturnType<typeof splitFrontMatter>, 'body'>), body: text.slice(end + 5) };
  const parsed = parseFrontMatter(yaml, text, file);
  memo?.set(yaml, JSON.stringify(parsed));
  return { ...parsed, body: text.slice(end + 5) };
}

/**
 * Front matter parsed before, by its YAML text, as JSON (the build keeps it between builds:
 * parsing YAML was most of loading a locale whose pages were all compiled before). Only
 * front matter that parsed is kept: a mistake is found and said again each time.
 */
export type FrontMatterMemo = { get(yaml: string): string | undefined; set(yaml: string, parsed: string): void };

function parseFrontMatter(
  yaml: string,
  text: string,
  file: string,
): { data: FrontMatter; bodyLine: number; keyLines: Readonly<Record<string, number>> } {
  const simple = simpleFrontMatter(yaml);
  if (simple) return { data: validate(simple.data, file, simple.keyLines), bodyLine: simple.bodyLine, keyLines: simple.keyLines };
  const lines = new LineCounter();
  const document = parseDocument(yaml, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  // The file's line and column of an offset into the YAML.
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line: line + YAML_FIRST_LINE - 1, column: col };
  };
  const [error] = document.errors;
  if (error) {
    const { offset, what } = describeYamlError(error, document);
    const { line, column } = at(offset);
    throw new Error(`${file}:${line}:${column}: front matter is not valid YAML: ${what}\n${snippet(text, line, column)}`);
  }
  const keyLines: Record<string, number> = {};
  if (isMap(document.contents)) {
    for (const item of document.contents.items) {
      if (isScalar(item.key) && item.key.range) keyLines[String(item.key.value)] = at(item.key.range[0]).line;
    }
  }
  // The 1-based line the body starts on: opening ---, the YAML lines, closing ---.
  const bodyLine = at(yaml.length).line + 1;
  return { data: validate(document.toJS(), file, keyLines), bodyLine, keyLines };
}

// One known key, a space, and a double-quoted text without escapes or control characters,
// a whole number, or true or false: the line as most pages write it.
const SIMPLE_LINE = /^([a-z]+): (?:"([^"\\\p{Cc}\p{Cs}\uFEFF\uFFFE\uFFFF\u2028\u2029]*)"|(0|-?[1-9][0-9]{0,14})|(true|false))$/u;

/**
 * Front matter whose every line is SIMPLE_LINE, each key known and named once, read without
 * the YAML parser (the largest part of loading a page on a first build): the values, key
 * lines and body line the parser gives for it. Anything else (a comment, a list, an escape,
 * a plain or single-quoted text) is null, and the parser reads it.
 */
function simpleFrontMatter(
  yaml: string,
): { data: Record<string, string | number | boolean>; bodyLine: number; keyLines: Record<string, number> } | null {
  const lines = yaml.split('\n');
  // The YAML ends with its last line's line break.
  if (lines.pop() !== '' || lines.length === 0) return null;
  const data: Record<string, string | number | boolean> = {};
  const keyLines: Record<string, number> = {};
  for (const [i, line] of lines.entries()) {
    const match = SIMPLE_LINE.exec(line);
    if (!match || !KNOWN.includes(match[1]!) || Object.hasOwn(data, match[1]!)) return null;
    const [, key, quoted, whole, flag] = match as unknown as [string, string, string?, string?, string?];
    data[key] = quoted ?? (whole !== undefined ? Number(whole) : flag === 'true');
    keyLines[key] = i + YAML_FIRST_LINE;
  }
  return { data, bodyLine: lines.length + YAML_FIRST_LINE + 1, keyLines };
}

/**
 * Where a YAML error is, in words. The library notices a quote or a `[`/`{` that is
 * never closed only where the next thing fails to fit (often the end of the front
 * matter); the place it was opened is where the author must look, so that is
 * where it is reported: the start of the node that ends where the error is.
 */
function describeYamlError(error: YAMLError, document: ReturnType<typeof parseDocument>): { offset: number; what: string } {
  const what = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (error.code !== 'MISSING_CHAR' && error.code !== 'BAD_INDENT') return { offset: error.pos[0], what };
  let opened: { offset: number; what: string } | undefined;
  const unclosed = (node: { range?: [number, number, number] | null }, open: string, close: string) => {
    if (node.range && node.range[1] === error.pos[0]) {
      opened = { offset: node.range[0], what: `the ${open} opened here is never closed${close ? ` by a ${close}` : ''}` };
    }
  };
  visit(document, {
    Scalar(_key, node) {
      if (node.type === 'QUOTE_DOUBLE') unclosed(node, '" quote', '');
      if (node.type === 'QUOTE_SINGLE') unclosed(node, "' quote", '');
    },
    Seq(_key, node) {
      if (node.flow) unclosed(node, '[', ']');
    },
    Map(_key, node) {
      if (node.flow) unclosed(node, '{', '}');
    },
  });
  return opened ?? { offset: error.pos[0], what };
}

/** The file's line with a caret under the column, as compilers show it. */
function snippet(text: string, line: number, column: number): string {
  const content = text.split('\n')[line - 1] ?? '';
  const gutter = String(line).length;
  return `  ${line} | ${content}\n  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, column - 1))}^`;
}

function validate(data: unknown, file: string, keyLines: Readonly<Record<string, number>>): FrontMatter {
  const fail = (message: string, key?: string): never => {
    throw new Error(`${file}:${(key !== undefined && keyLines[key]) || YAML_FIRST_LINE}: front matter ${message}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('must be a map of keys to values');
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (KNOWN.includes(key)) continue;
    const near = KNOWN.find((known) => oneEditApart(key, known));
    fail(`has an unknown key "${key}"${near ? `; did you mean "${near}"?` : ''} (known: ${KNOWN.join(', ')})`, key);
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = record[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return fail(`needs "${key}" as non-empty text`, key);
    return value.trim();
  };
  const order = record.order;
  if (order !== undefined && !Number.isInteger(order)) fail('"order" must be a whole number', 'order');
  const day = (key: string) => {
    const value = text(key, false);
    if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) fail(`"${key}" must be written YYYY-MM-DD, in quotes`, key);
    if (value !== undefined && Number.isNaN(Date.parse(value))) fail(`"${key}" ${value} is not a real day`, key);
    return value;
  };
  const date = day('date');
  const updated = day('updated');
  // A slug is checked against every other page's path later; here only that it is text.
  const slug = record.slug === undefined ? undefined : typeof record.slug === 'string' ? record.slug : fail('needs "slug" as text', 'slug');
  if (record.draft !== undefined && typeof record.draft !== 'boolean') fail('"draft" must be true or false', 'draft');
  if (record.unlisted !== undefined && typeof record.unlisted !== 'boolean') fail('"unlisted" must be true or false', 'unlisted');
  const keywords = record.keywords;
  if (
    keywords !== undefined &&
    (!Array.isArray(keywords) ||
      keywords.length > MAX_KEYWORDS ||
      keywords.some((keyword) => typeof keyword !== 'string' || keyword.trim() === '' || keyword.length > MAX_KEYWORD_LENGTH))
  )
    fail(
      `"keywords" must be a list of at most ${MAX_KEYWORDS} words or phrases, each non-empty text of at most ${MAX_KEYWORD_LENGTH} characters`,
      'keywords',
    );
  return {
    title: text('title', true)!,
    description: text('description', true)!,
    ...(order !== undefined && { order: order as number }),
    ...(record.nav !== undefined && { nav: text('nav', true)! }),
    ...(date !== undefined && { date }),
    ...(updated !== undefined && { updated }),
    ...(record.author !== undefined && { author: text('author', true)! }),
    ...(slug !== undefined && { slug }),
    ...(record.image !== undefined && { image: text('image', true)! }),
    ...(record.draft === true && { draft: true as const }),
    ...(record.unlisted === true && { unlisted: true as const }),
    ...(keywords !== undefined && { keywords: (keywords as string[]).map((keyword) => keyword.trim()) }),
  };
}

/** True when one insertion, deletion, substitution or swap of neighbours turns `a` into `b` (`descripton`, `titel`). */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/**
 * The 1-based file line of a top-level front matter key, for error reports; the
 * front matter's first line when it is absent or the front matter does not parse.
 */
export function frontMatterLine(source: string, key: string): number {
  try {
    return splitFrontMatter(source, '').keyLines[key] ?? YAML_FIRST_LINE;
  } catch {
    return YAML_FIRST_LINE;
  }
}
