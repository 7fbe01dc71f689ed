import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CompiledMessages } from '../../i18n/intl.ts';
import type { Site, SourcePage } from './site.ts';

/**
 * Compiled content written by `npm run build` (dist/content.json), so start-up
 * does not run Markdown or load its parser: a faster cold start and a smaller
 * process. It is used only while the content folder is exactly what was built
 * (names, sizes, modification times, locales); otherwise the server compiles
 * from source, so an edited page is never served stale.
 */
export const SNAPSHOT_FILE = 'content.json';

type Snapshot = {
  fingerprint: string;
  site: { locales: string[]; defaultLocale: string; pages: [string, [string, SourcePage][]][]; translations: [string, string[]][] };
  messages: [string, CompiledMessages][];
};

export function contentFingerprint(localesDir: string, locales: readonly string[], defaultLocale: string): string {
  const hash = createHash('sha256').update(JSON.stringify([locales, defaultLocale]));
  const files = readdirSync(localesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const stat = statSync(file);
    hash.update(`${relative(localesDir, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('base64url');
}

export function writeSnapshot(file: string, fingerprint: string, site: Site, messages: ReadonlyMap<string, CompiledMessages>): void {
  const snapshot: Snapshot = {
    fingerprint,
    site: {
      locales: [...site.locales],
      defaultLocale: site.defaultLocale,
      pages: [...site.pages].map(([locale, pages]) => [locale, [...pages]]),
      translations: [...site.translations].map(([slug, locales]) => [slug, [...locales]]),
    },
    messages: [...messages],
  };
  writeFileSync(file, JSON.stringify(snapshot));
}

/** The built content, or null when there is none or the content folder changed since. */
export function readSnapshot(file: string, fingerprint: string): { site: Site; messages: Map<string, CompiledMessages> } | null {
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (snapshot.fingerprint !== fingerprint) return null;
  return {
    site: {
      locales: snapshot.site.locales,
      defaultLocale: snapshot.site.defaultLocale,
      pages: new Map(snapshot.site.pages.map(([locale, pages]) => [locale, new Map(pages)])),
      translations: new Map(snapshot.site.translations),
    },
    messages: new Map(snapshot.messages),
  };
}
