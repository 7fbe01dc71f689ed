import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { PageKey } from './paths.ts';

// A docs folder's `_section.yml`, beside its pages in the default locale's folder, says
// how the folder shows as a section of the sidebar:
//
//     label:            # the section's name: one for every locale, or one per locale
//       en: Guides
//       de: Anleitungen
//     order: 2          # its place among its siblings, as a page's `order`
//     collapsed: true   # folded on its own page until the reader unfolds it
//
// The label names a folder without an index.md (one with an index.md is named by its
// `nav` or `title`); a locale the label leaves out gets the default locale's.

export type SectionFile = {
  /** Per locale; `*` when one label serves every locale. */
  label?: ReadonlyMap<string, string>;
  order?: number;
  collapsed?: true;
};

const KNOWN = ['label', 'order', 'collapsed'];
export const SECTION_FILE = '_section.yml';

/**
 * Every `_section.yml` under `pagesDir/docs`, by its folder's page key (`docs/guides`).
 * A mistake (YAML that does not parse, an unknown key, a value of the wrong kind, a
 * locale that is not one of the site's) is a problem naming the file and the line.
 */
export function readSectionFiles(
  pagesDir: string,
  locales: readonly string[],
): { sections: Map<PageKey, SectionFile>; problems: string[] } {
  const sections = new Map<PageKey, SectionFile>();
  const problems: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(pagesDir, 'docs'), { withFileTypes: true, recursive: true });
  } catch {
    return { sections, problems };
  }
  for (const entry of entries.filter((entry) => entry.isFile() && entry.name === SECTION_FILE)) {
    const file = join(entry.parentPath, entry.name);
    const display = relative(process.cwd(), file) || file;
    // The folder's page key, in NFC as page keys are (a folder name may be saved decomposed).
    const key = relative(pagesDir, entry.parentPath).split(sep).join('/').normalize('NFC');
    const read = parseSectionFile(readFileSync(file, 'utf8'), display, locales);
    if ('problem' in read) problems.push(read.problem);
    else sections.set(key, read.section);
  }
  return { sections, problems };
}

export function parseSectionFile(text: string, file: string, locales: readonly string[]): { section: SectionFile } | { problem: string } {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineOf = (offset: number | undefined) => lines.linePos(offset ?? 0).line;
  const [error] = document.errors;
  if (error) return { problem: `${file}:${lineOf(error.pos[0])}: not valid YAML: ${error.message.split('\n')[0]}` };
  const contents = document.contents;
  if (contents === null) return { section: {} };
  if (!isMap(contents)) return { problem: `${file}:${lineOf(contents.range?.[0])}: write keys (label, order, collapsed), one per line` };
  const section: { label?: Map<string, string>; order?: number; collapsed?: true } = {};
  for (const item of contents.items) {
    const name = isScalar(item.key) ? String(item.key.value) : '';
    const at = lineOf(isScalar(item.key) ? item.key.range?.[0] : undefined);
    const fail = (message: string) => ({ problem: `${file}:${at}: ${message}` });
    const value = item.value;
    if (!KNOWN.includes(name)) return fail(`unknown key "${name}" (known: ${KNOWN.join(', ')})`);
    if (name === 'order') {
      if (!isScalar(value) || !Number.isInteger(value.value)) return fail('"order" must be a whole number');
      section.order = value.value as number;
    } else if (name === 'collapsed') {
      if (!isScalar(value) || typeof value.value !== 'boolean') return fail('"collapsed" must be true or false');
      if (value.value) section.collapsed = true;
    } else if (isScalar(value) && typeof value.value === 'string' && value.value.trim()) {
      section.label = new Map([['*', value.value.trim()]]);
    } else if (isMap(value)) {
      const labels = new Map<string, string>();
      for (const pair of value.items) {
        const locale = isScalar(pair.key) ? String(pair.key.value) : '';
        const label = isScalar(pair.value) ? pair.value.value : undefined;
        const line = lineOf(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
        if (!locales.includes(locale))
          return { problem: `${file}:${line}: "${locale}" is not one of the site's locales (${locales.join(', ')})` };
        if (typeof label !== 'string' || !label.trim()) return { problem: `${file}:${line}: the label for "${locale}" must be text` };
        labels.set(locale, label.trim());
      }
      section.label = labels;
    } else return fail('"label" must be text, or text per locale (en: Guides)');
  }
  return { section };
}

/** The section's label in a locale: its own, else the default locale's, else the one for all. */
export function sectionLabel(section: SectionFile | undefined, locale: string, defaultLocale: string): string | undefined {
  return section?.label?.get(locale) ?? section?.label?.get(defaultLocale) ?? section?.label?.get('*');
}
