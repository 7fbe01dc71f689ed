import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RECORD_FILE, readRecord, writeRecord } from './translation-record.ts';
import { NEXT_NAME, VERSIONS_FILE, versionsDirOf } from './versions.ts';

/**
 * Freezes the current docs as the version `name` (`npm run version`): each locale's
 * `pages/docs/` copied as it is (Markdown and the files beside it) to
 * `versions/<name>/<locale>/pages/docs/`, its translation records of those pages to
 * `versions/<name>/<locale>/translations.json`, and the version listed first in
 * versions.json. Refuses a name that is listed or has a folder already.
 */
export function snapshotVersion(
  localesDir: string,
  locales: readonly string[],
  name: string,
  label: string,
): { dir: string; pages: number } {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..' || name === NEXT_NAME) {
    throw new Error(`"${name}" cannot name a version: it is a URL segment (letters, digits, ".", "-", "_"; not "${NEXT_NAME}")`);
  }
  const versionsDir = versionsDirOf(localesDir);
  const listFile = join(versionsDir, VERSIONS_FILE);
  type Listed = { name: string; label?: string };
  const list: { versions: Listed[] } = existsSync(listFile)
    ? JSON.parse(readFileSync(listFile, 'utf8'))
    : { current: { label: NEXT_NAME, released: false }, versions: [] };
  const dir = join(versionsDir, name);
  if (list.versions.some((version) => version.name === name) || existsSync(dir)) {
    throw new Error(`the version "${name}" exists already (${relative(process.cwd(), dir) || dir})`);
  }
  let pages = 0;
  for (const locale of locales) {
    const docs = join(localesDir, locale, 'pages', 'docs');
    if (!existsSync(docs)) continue;
    cpSync(docs, join(dir, locale, 'pages', 'docs'), { recursive: true });
    pages += readdirSync(docs, { recursive: true }).filter((file) => String(file).endsWith('.md')).length;
    const record = readRecord(localesDir, locale);
    const docsRecord = Object.fromEntries(Object.entries(record).filter(([key]) => key === 'docs' || key.startsWith('docs/')));
    if (existsSync(join(localesDir, locale, RECORD_FILE))) writeRecord(dir, locale, docsRecord);
  }
  mkdirSync(versionsDir, { recursive: true });
  list.versions.unshift({ name, ...(label !== name && { label }) });
  writeFileSync(listFile, `${JSON.stringify(list, null, 2)}\n`);
  return { dir: relative(process.cwd(), dir) || dir, pages };
}
