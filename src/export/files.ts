// Where each URL's bytes go in the exported folder, and the writer that puts them there.
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Written first: a folder holding it is an earlier export (complete or not), which the next one may empty. */
export const EXPORT_MARKER = '.polysite-export';

/** A mistake the export reports in one line (the content, the folder, the build), not a crash. */
export class ExportError extends Error {
  override name = 'ExportError';
}

/**
 * The file a static host serves for a URL path: `/en` -> `en.html`, `/en/docs/x` ->
 * `en/docs/x.html` (hosts serve `/x` from `x.html`, so the canonical URL needs no
 * trailing slash), other files as they are (`/sitemap.xml`). Segments are stored
 * decoded, as hosts look them up: `/ja/%E6%A6%82%E8%A6%81` is the file `ja/概要.html`.
 * Throws for a path no host could map to one file (the server refuses those too).
 */
export function fileForPath(urlPath: string, extension = ''): string {
  if (!urlPath.startsWith('/') || urlPath.length < 2) throw new ExportError(`no file for the path ${JSON.stringify(urlPath)}`);
  const segments = urlPath
    .slice(1)
    .split('/')
    .map((segment) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        decoded = '';
      }
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
      if (!decoded || decoded === '.' || decoded === '..' || /[/\\\u0000-\u001f\u007f]/.test(decoded)) {
        throw new ExportError(`no file for the path ${JSON.stringify(urlPath)}`);
      }
      return decoded;
    });
  return segments.join('/') + extension;
}

/** Writes files under one folder, counting them and their bytes; folders are made once. */
export class OutputFolder {
  readonly root: string;
  files = 0;
  bytes = 0;
  readonly #made = new Set<string>();
  readonly #written = new Map<string, string>();

  constructor(root: string) {
    this.root = root;
  }

  /** `file`: a path relative to the folder, with `/` separators. */
  write(file: string, bytes: Buffer | string): void {
    this.#claim(file);
    writeFileSync(this.#place(file), bytes);
    this.#count(typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length);
  }

  copy(source: string, file: string): void {
    this.#claim(file);
    copyFileSync(source, this.#place(file));
    this.#count(statSync(source).size);
  }

  /**
   * One file per name: a page whose slug is `404` would be overwritten by the
   * not-found page, and `About` and `about` are one file on a case-insensitive disk
   * (macOS, Windows, and the hosts that store files that way).
   */
  #claim(file: string): void {
    const key = file.normalize('NFC').toLowerCase();
    const earlier = this.#written.get(key);
    if (earlier !== undefined)
      throw new ExportError(`two files would be written as ${file}${earlier === file ? '' : ` and ${earlier}`}: rename one of the pages`);
    this.#written.set(key, file);
  }

  #place(file: string): string {
    const path = join(this.root, file);
    const folder = dirname(path);
    if (!this.#made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#made.add(folder);
    }
    return path;
  }

  #count(bytes: number): void {
    this.files += 1;
    this.bytes += bytes;
  }
}
