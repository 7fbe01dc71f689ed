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
};

const KNOWN = new Set(['title', 'description', 'order', 'nav', 'date', 'author']);

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
  const date = text('date', false);
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) fail(`"date" must be written YYYY-MM-DD, in quotes`);
  if (date !== undefined && Number.isNaN(Date.parse(date))) fail(`"date" ${date} is not a real day`);
  return {
    title: text('title', true)!,
    description: text('description', true)!,
    ...(order !== undefined && { order: order as number }),
    ...(record.nav !== undefined && { nav: text('nav', true)! }),
    ...(date !== undefined && { date }),
    ...(record.author !== undefined && { author: text('author', true)! }),
  };
}
