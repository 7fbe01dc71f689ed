import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { PageKey } from './paths.ts';

// The docs of each release a team keeps (docs/versions.md). `versions/` sits beside
// the content folder (`locales/`): `versions/versions.json` lists the versions, newest
// first, and `versions/<name>/<locale>/pages/docs/**` holds each one's frozen docs,
// with `versions/<name>/<locale>/translations.json`, as `npm run version` wrote them.
// Without versions.json the site has one, unversioned, set of docs.
//
// A version's pages are ordinary pages of the site whose keys sit under its mount:
// the latest release's under `docs` (today's paths), another's under `docs/<name>`.
// Paths, localized slugs, fallbacks, the page store and the export need nothing else.

export const VERSIONS_FILE = 'versions.json';

/** The name the current docs get in URLs when they are not released yet (`/<locale>/docs/next/...`). */
export const NEXT_NAME = 'next';

export type DocsVersion = {
  /** The URL segment (`0.1`); the current docs' is their label's, or `next` when unreleased. */
  name: string;
  /** What readers see (`0.1.x`). */
  label: string;
  /** The key of its docs' root: `docs` for the latest release, else `docs/<name>`. */
  mount: PageKey;
  /** The latest release: at today's paths, in the sitemap and hreflang clusters. */
  latest: boolean;
  /** The current docs, not released yet. */
  next: boolean;
  unmaintained: boolean;
  /** Its pages carry `<meta name="robots" content="noindex">`. */
  noindex: boolean;
  /** Where its frozen docs are (`versions/0.1`); undefined for the current docs (the content folder). */
  dir?: string | undefined;
  /** Where it is declared, for messages: `versions/versions.json:7`. */
  declared: string;
};

/** Newest first; empty for an unversioned site. */
export type SiteVersions = readonly DocsVersion[];

/** `versions/` beside the content folder. */
export function versionsDirOf(localesDir: string): string {
  return join(dirname(resolve(localesDir)), 'versions');
}

/**
 * The versions versions.json lists (newest first, the current docs among them), or
 * none when there is no versions.json; every mistake with the file and line.
 */
export function readVersions(localesDir: string): { versions: DocsVersion[]; problems: string[] } {
  const dir = versionsDirOf(localesDir);
  const file = join(dir, VERSIONS_FILE);
  if (!existsSync(file)) return { versions: [], problems: [] };
  const shown = relative(process.cwd(), file) || file;
  const text = readFileSync(file, 'utf8');
  const problems: string[] = [];
  const at = (key: string, nth = 0, value?: string) => `${shown}:${lineOf(text, key, nth, value)}`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : 1;
    return { versions: [], problems: [`${shown}:${line}: not valid JSON: ${(error as Error).message}`] };
  }
  const fail = (where: string, why: string) => {
    problems.push(`${where}: ${why}`);
    return { versions: [], problems };
  };
  if (!isObject(data))
    return fail(`${shown}:1`, 'must be an object: { "current": { "label": "2.1", "released": true }, "versions": [...] }');
  const current = data.current;
  if (!isObject(current) || typeof current.label !== 'string' || current.label.trim() === '' || typeof current.released !== 'boolean') {
    return fail(
      at('"current"'),
      '"current" must be { "label": "<what readers see>", "released": true | false } (released: the current docs are the latest release; false: they are the next, unreleased one)',
    );
  }
  if (!Array.isArray(data.versions)) return fail(at('"versions"'), '"versions" must be a list, newest first');
  const released = current.released;
  const seen = new Map<string, string>();
  const listed: DocsVersion[] = [];
  data.versions.forEach((entry: unknown) => {
    const where = at('"versions"');
    if (!isObject(entry) || typeof entry.name !== 'string') {
      problems.push(`${where}: each version is { "name": "1.0", "label": "1.x", "unmaintained": true }`);
      return;
    }
    const name = entry.name;
    const named = at('"name"', seen.has(name) ? 1 : 0, name);
    if (!SAFE_NAME.test(name) || name === '.' || name === '..') {
      problems.push(`${named}: the version name "${name}" is a URL segment: letters, digits, ".", "-" and "_" only`);
      return;
    }
    if (name === NEXT_NAME && !released) {
      problems.push(`${named}: "${NEXT_NAME}" is the path of the unreleased current docs; name this version otherwise`);
      return;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push(`${named}: the version "${name}" is named twice (first at ${first}); keep one`);
      return;
    }
    seen.set(name, named);
    const label = typeof entry.label === 'string' && entry.label.trim() !== '' ? entry.label : name;
    const unmaintained = entry.unmaintained === true;
    listed.push({
      name,
      label,
      mount: `docs/${name}`,
      latest: false,
      next: false,
      unmaintained,
      noindex: typeof entry.noindex === 'boolean' ? entry.noindex : unmaintained,
      dir: join(dir, name),
      declared: named,
    });
  });
  if (!released && listed.length === 0 && problems.length === 0) {
    problems.push(`${at('"released"')}: unreleased current docs need a released version listed under "versions" to be the latest`);
  }
  for (const version of listed) {
    if (!existsSync(version.dir!)) {
      problems.push(
        `${version.declared}: the version "${version.name}" has no folder ${relative(process.cwd(), version.dir!) || version.dir} (npm run version -- ${version.name})`,
      );
    }
  }
  if (problems.length) return { versions: [], problems };
  const currentVersion: DocsVersion = {
    name: released ? current.label : NEXT_NAME,
    label: current.label,
    mount: released ? 'docs' : `docs/${NEXT_NAME}`,
    latest: released,
    next: !released,
    unmaintained: false,
    noindex: false,
    declared: at('"current"'),
  };
  if (!released) Object.assign(listed[0]!, { mount: 'docs', latest: true });
  return { versions: [currentVersion, ...listed], problems };
}

/** The version whose docs hold the page, or undefined (not a docs page, or an unversioned site). */
export function versionOf(versions: SiteVersions, key: PageKey): DocsVersion | undefined {
  let found: DocsVersion | undefined;
  for (const version of versions) {
    if (key !== version.mount && !key.startsWith(`${version.mount}/`)) continue;
    // `docs/0.1/x` is under `docs` too: the longer mount is its version.
    if (!found || version.mount.length > found.mount.length) found = version;
  }
  return found;
}

/** The page's key as its version's own tree has it (`docs/0.1/install` -> `docs/install`). */
export function baseKey(version: DocsVersion, key: PageKey): PageKey {
  return `docs${key.slice(version.mount.length)}`;
}

/** A key of a version's own tree (`docs/install`) where the site serves it (`docs/0.1/install`). */
export function keyIn(version: DocsVersion, base: PageKey): PageKey {
  return version.mount + base.slice('docs'.length);
}

/** Whether a key is a docs page's (in a version's own tree). */
export function isDocsKey(key: PageKey): boolean {
  return key === 'docs' || key.startsWith('docs/');
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The line (from 1) of the `nth` occurrence of the key (with that string value, when given), or 1. */
function lineOf(text: string, key: string, nth: number, value?: string): number {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(literal(key) + (value === undefined ? '' : `\\s*:\\s*${literal(JSON.stringify(value))}`), 'g');
  const found = [...text.matchAll(pattern)][nth];
  return found ? text.slice(0, found.index).split('\n').length : 1;
}
