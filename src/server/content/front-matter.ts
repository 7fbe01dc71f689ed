import { parse as parseYaml } from 'yaml';

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
};

const KNOWN = new Set(['title', 'description', 'order', 'nav', 'date', 'updated', 'author', 'slug', 'image', 'draft']);

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
 * Splits `---\n<yaml>\n---\n<markdown>` and validates the YAML. Returns the body
 * and the number of lines before it, so Markdown line numbers map to the file.
 * Throws a message with the file and line on any problem.
 */
export function splitFrontMatter(source: string, file: string): { data: FrontMatter; body: string; bodyLine: number } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) throw new Error(`${file}:1: missing front matter (the file must start with a --- line)`);
  const end = text.indexOf('\n---', 3);
  if (end === -1 || (text[end + 4] !== '\n' && end + 4 !== text.length)) {
    throw new Error(`${file}:1: front matter is not closed by a --- line`);
  }
  const yaml = text.slice(4, end + 1);
  let data: unknown;
  try {
    data = parseYaml(yaml);
  } catch (error) {
    const line = (error as { linePos?: [{ line: number }] }).linePos?.[0]?.line ?? 0;
    throw new Error(`${file}:${line + 1}: front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  // The 1-based line the body starts on: opening ---, the YAML lines, closing ---.
  const bodyLine = yaml.split('\n').length + 2;
  return { data: validate(data, file), body: text.slice(end + 5), bodyLine };
}

function validate(data: unknown, file: string): FrontMatter {
  const fail = (message: string): never => {
    throw new Error(`${file}:2: front matter ${message}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('must be a map of keys to values');
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!KNOWN.has(key)) fail(`has an unknown key "${key}" (known: ${[...KNOWN].join(', ')})`);
  const text = (key: string, required: boolean): string | undefined => {
    const value = record[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return fail(`needs "${key}" as non-empty text`);
    return value.trim();
  };
  const order = record.order;
  if (order !== undefined && !Number.isInteger(order)) fail('"order" must be a whole number');
  const day = (key: string) => {
    const value = text(key, false);
    if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) fail(`"${key}" must be written YYYY-MM-DD, in quotes`);
    if (value !== undefined && Number.isNaN(Date.parse(value))) fail(`"${key}" ${value} is not a real day`);
    return value;
  };
  const date = day('date');
  const updated = day('updated');
  // A slug is checked against every other page's path later; here only that it is text.
  const slug = record.slug === undefined ? undefined : typeof record.slug === 'string' ? record.slug : fail('needs "slug" as text');
  if (record.draft !== undefined && typeof record.draft !== 'boolean') fail('"draft" must be true or false');
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
  };
}

/** The 1-based file line of a top-level front matter key, for error reports; the front matter's first line when absent. */
export function frontMatterLine(source: string, key: string): number {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const pattern = new RegExp(`^${key}\\s*:`);
  for (let i = 1; i < lines.length && lines[i] !== '---'; i++) if (pattern.test(lines[i]!)) return i + 1;
  return 2;
}
