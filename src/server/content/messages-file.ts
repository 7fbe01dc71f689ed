import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type DocumentNode, evaluate, parse as parseJson, type StringNode } from '@humanwhocodes/momoa';

// One locale's messages.json as the translator wrote it: every message with the
// place of its text in the file, so that a problem found inside a message (by the
// ICU parser, at an offset of the message) is reported at the file's line and
// column. The JSON parser (momoa) gives every node's line and column; no line is
// counted here.

/** A message as written: its key, its text, and where the text's JSON string starts. */
export type WrittenMessage = {
  key: string;
  text: string;
  /** 1-based line and column of the key in messages.json. */
  keyAt: Position;
  /** 1-based line and column of the opening quote of the text. */
  textAt: Position;
  /** The JSON string as written, quotes included: maps an offset in `text` to a column. */
  literal: string;
};

export type Position = { line: number; column: number };

export type MessagesFile = {
  /** The file's path as printed in problems (relative to the working directory). */
  file: string;
  messages: WrittenMessage[];
  /** Keys whose value is rightly the default locale's ("$meta": { "sameAsDefault": [...] }). */
  sameAsDefault: string[];
  /** Each problem as `file:line:column: what`. */
  problems: string[];
};

/** "$meta" holds notes for the tooling, not a message. */
const META_KEY = '$meta';

export function messagesFilePath(localesDir: string, locale: string): string {
  return relative(process.cwd(), join(localesDir, locale, 'messages.json')) || join(localesDir, locale, 'messages.json');
}

export function readMessagesFile(localesDir: string, locale: string): MessagesFile {
  const file = messagesFilePath(localesDir, locale);
  const empty = (problem: string): MessagesFile => ({ file, messages: [], sameAsDefault: [], problems: [problem] });
  let text: string;
  try {
    text = readFileSync(join(localesDir, locale, 'messages.json'), 'utf8');
  } catch (error) {
    return empty(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let document: DocumentNode;
  try {
    document = parseJson(text, { mode: 'json', ranges: true });
  } catch (error) {
    // momoa's errors carry the line and column; its message ends with them in parentheses.
    const { line = 1, column = 1, message } = error as Error & Partial<Position>;
    return empty(`${file}:${line}:${column}: not valid JSON: ${message.replace(/\s*\(\d+:\d+\)$/, '')}`);
  }
  const root = document.body;
  if (root.type !== 'Object') return empty(`${file}:1:1: must be an object of "key": "ICU message"`);

  const problems: string[] = [];
  const messages: WrittenMessage[] = [];
  const seen = new Map<string, number>();
  let sameAsDefault: string[] = [];
  for (const member of root.members) {
    const name = member.name as StringNode;
    const key = name.value;
    const keyAt = at(name.loc.start);
    const where = `${file}:${keyAt.line}:${keyAt.column}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`${where}: message "${key}" is written twice (first on line ${first}); keep one`);
      continue;
    }
    seen.set(key, keyAt.line);
    if (key === META_KEY) {
      const list = (evaluate(member.value) as { sameAsDefault?: unknown } | null)?.sameAsDefault;
      sameAsDefault = Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
      continue;
    }
    const value = member.value;
    if (value.type !== 'String') {
      problems.push(`${where}: message "${key}" must be a string (an ICU message), not ${describe(value.type)}`);
      continue;
    }
    const literal = text.slice(value.range![0], value.range![1]);
    // JSON forbids a raw line break in a string, and other tools reading the file would refuse it.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    const control = /[\u0000-\u001f]/.exec(literal);
    if (control) {
      const column = value.loc.start.column + control.index;
      problems.push(
        `${file}:${value.loc.start.line}:${column}: message "${key}" holds a raw line break or control character; write it as \\n`,
      );
      continue;
    }
    messages.push({ key, text: value.value, keyAt, textAt: at(value.loc.start), literal });
  }
  return { file, messages, sameAsDefault, problems };
}

/**
 * The 1-based file column of `offset` (UTF-16 units, as the ICU parser counts) in the
 * message's text: the text's column plus the length of what is written before it,
 * where an escape (`\"`, `\n`, `\u00e9`) is written longer than the character it is.
 */
export function columnOf(message: WrittenMessage, offset: number): number {
  const { literal } = message;
  let raw = 1; // past the opening quote
  for (let decoded = 0; decoded < offset && raw < literal.length - 1; decoded++) {
    raw += literal[raw] !== '\\' ? 1 : literal[raw + 1] === 'u' ? 6 : 2;
  }
  return message.textAt.column + raw;
}

function at({ line, column }: Position): Position {
  return { line, column };
}

function describe(type: string): string {
  return { Object: 'an object', Array: 'a list', Number: 'a number', Boolean: 'true or false', Null: 'null' }[type] ?? type;
}
