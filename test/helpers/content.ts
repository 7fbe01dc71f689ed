import type { MarkdownLabels } from '../../src/server/content/markdown.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT } from './server.ts';

/** A page file's text from front matter fields and a body. */
export function makePage(front: Record<string, string | number | string[]> = {}, body = 'Some text.\n'): string {
  const fields = { title: 'A title', description: 'A description.', ...front };
  const yaml = Object.entries(fields)
    // Text and lists as JSON, which is YAML too.
    .map(([key, value]) => `${key}: ${typeof value === 'number' ? value : JSON.stringify(value)}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

/** The default site's messages of `locale` (locales/<locale>/messages.json), for fixtures that render real screens. */
export function realMessages(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));
}

export const MESSAGES = {
  'site.name': 'Site',
  'notFound.title': 'Not found',
  'error.title': 'Error',
  'error.body': 'Oops',
  'content.table': 'Table {number}',
  'content.code': 'Code {number}',
  'content.headingLink': 'Link to {heading}',
  'content.footnotes': 'Footnotes',
  'content.footnoteBack': 'Back to reference {number}',
  'callout.note': 'Note',
  'callout.tip': 'Tip',
  'callout.info': 'Info',
  'callout.important': 'Important',
  'callout.warning': 'Warning',
  'callout.danger': 'Danger',
  'callout.caution': 'Caution',
  'content.copyCode': 'Copy code',
  'content.codeCopied': 'Copied',
};

/**
 * A temporary `locales/` folder: { en: { 'pages/index.md': text, 'messages.json': {...} } }.
 * messages.json defaults to MESSAGES when a locale does not give one; bytes (an image) are written as they are.
 */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function makeLocales(tree: Record<string, Record<string, string | object>>): string {
  const root = mkdtempSync(join(tmpdir(), 'polysite-locales-'));
  made.push(root);
  for (const [locale, files] of Object.entries(tree)) {
    // Every locale folder has its pages/ folder, as a real one must (it may be empty).
    mkdirSync(join(root, locale, 'pages'), { recursive: true });
    const all = { 'messages.json': MESSAGES, ...files };
    for (const [file, content] of Object.entries(all)) {
      const path = join(root, locale, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content));
    }
  }
  return root;
}

/** A messages.json as a translator writes it: one key a line, two spaces in (so a test can name the line). */
export function messagesText(messages: Record<string, string>): string {
  return `{\n${Object.entries(messages)
    .map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(',\n')}\n}\n`;
}

/** A file's path as problems print it: relative to the working directory. */
export function shown(dir: string, file: string): string {
  return relative(process.cwd(), join(dir, file));
}

/**
 * A locales folder whose `/en/big` page is ~12 MB of Markdown ending in `THE END`:
 * more than loopback socket buffers hold while a client does not read, so its
 * answer is still being written for as long as the client waits.
 */
export function makeLargePageLocales(): string {
  const paragraph = `${'A long paragraph of documentation text that repeats. '.repeat(40)}\n\n`;
  return makeLocales({
    en: {
      'messages.json': { ...MESSAGES },
      'pages/index.md': makePage(),
      'pages/big.md': makePage({ title: 'Big' }, `${paragraph.repeat(5500)}THE END\n`),
    },
  });
}

/** A compiled site and its messages from a locales tree (see makeLocales); the first locale is the default. */
export async function makeSite(tree: Record<string, Record<string, string | object>>, options: { warn?: (message: string) => void } = {}) {
  const { loadSite } = await import('../../src/server/content/site.ts');
  const { loadMessages } = await import('../../src/server/content/messages.ts');
  const dir = makeLocales(tree);
  const locales = Object.keys(tree);
  const messages = loadMessages(dir, locales, locales[0]!);
  return { site: loadSite(dir, locales, locales[0]!, messages, options), messages };
}

/** Labels for the Markdown renderer's boxes and anchors, in English. */
export const MARKDOWN_LABELS: MarkdownLabels = {
  table: (number) => `Table ${number}`,
  code: (number) => `Code ${number}`,
  headingLink: (heading) => `Link to ${heading}`,
  callout: (kind) => kind[0]!.toUpperCase() + kind.slice(1),
  footnotes: 'Footnotes',
  footnoteBack: (number) => `Back to reference ${number}`,
  copyCode: () => 'Copy code',
  codeCopied: () => 'Copied',
};
