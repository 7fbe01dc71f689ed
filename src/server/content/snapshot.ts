import { createHash } from 'node:crypto';
import { openSync, readdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CompiledMessages } from '../../i18n/intl.ts';
import { sitePaths } from './paths.ts';
import type { Site, SourcePage } from './site.ts';

// Compiled content written by `npm run build`, so start-up does not run Markdown
// or load its parser: a faster cold start and a smaller process. Two files:
// dist/content.json holds everything but the pages' HTML (front matter, slugs,
// messages), and dist/content.html holds the HTML of every page, one after the
// other in UTF-8. The server reads the first at start and each page's HTML only
// when a request needs it, so a site of thousands of pages does not carry its
// text in the heap. The snapshot is used only while the content folder is
// exactly what was built (names, sizes, modification times, locales); otherwise
// the server compiles from source, so an edited page is never served stale.

export const SNAPSHOT_FILE = 'content.json';
export const BODIES_FILE = 'content.html';

/** A page without its HTML, and where its HTML is in the bodies file: [byte offset, byte length]. */
type StoredPage = Omit<SourcePage, 'html' | 'sections'> & { at: [number, number] };

type Snapshot = {
  fingerprint: string;
  site: { locales: string[]; defaultLocale: string; pages: [string, StoredPage[]][]; translations: [string, string[]][] };
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

/**
 * Writes both files next to each other. Each is written aside and renamed into
 * place, so a server still running from an older build keeps reading the file it
 * opened (same inode), never a half-written or a newer one.
 */
export function writeSnapshot(dir: string, fingerprint: string, site: Site, messages: ReadonlyMap<string, CompiledMessages>): void {
  const bodies: Buffer[] = [];
  let offset = 0;
  const pages = [...site.pages].map(([locale, byslug]): [string, StoredPage[]] => [
    locale,
    // The section text is left out: the search index files the build writes hold it.
    [...byslug.values()].map(({ html, sections: _sections, ...page }) => {
      const body = Buffer.from(html());
      bodies.push(body);
      offset += body.length;
      return { ...page, at: [offset - body.length, body.length] };
    }),
  ]);
  const snapshot: Snapshot = {
    fingerprint,
    site: {
      locales: [...site.locales],
      defaultLocale: site.defaultLocale,
      pages,
      translations: [...site.translations].map(([slug, locales]) => [slug, [...locales]]),
    },
    messages: [...messages],
  };
  writeAside(join(dir, BODIES_FILE), Buffer.concat(bodies));
  writeAside(join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot));
}

function writeAside(file: string, data: string | Buffer): void {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

/** The built content, or null when there is none or the content folder changed since. */
export function readSnapshot(dir: string, fingerprint: string): { site: Site; messages: Map<string, CompiledMessages> } | null {
  let snapshot: Snapshot;
  let fd: number;
  try {
    snapshot = JSON.parse(readFileSync(join(dir, SNAPSHOT_FILE), 'utf8'));
    if (snapshot.fingerprint !== fingerprint) return null;
    // Open once and kept open for the life of the process: a page's HTML is one positioned read.
    fd = openSync(join(dir, BODIES_FILE), 'r');
  } catch {
    return null;
  }
  const read = ([offset, length]: [number, number]): string => {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const got = readSync(fd, buffer, done, length - done, offset + done);
      if (got === 0) throw new Error(`${BODIES_FILE} ends before byte ${offset + length}: rebuild (npm run build)`);
      done += got;
    }
    return buffer.toString('utf8');
  };
  const pages = new Map(
    snapshot.site.pages.map(([locale, pages]) => [
      locale,
      new Map(pages.map(({ at, ...page }): [string, SourcePage] => [page.slug, { ...page, sections: [], html: () => read(at) }])),
    ]),
  );
  return {
    site: {
      locales: snapshot.site.locales,
      defaultLocale: snapshot.site.defaultLocale,
      pages,
      translations: new Map(snapshot.site.translations),
      paths: sitePaths(pages, snapshot.site.defaultLocale),
    },
    messages: new Map(snapshot.messages),
  };
}
