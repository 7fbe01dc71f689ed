import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `npm run build` wrote: the build id and the hashed names of the entry
 * files. Read once at start-up; the document links to these names.
 */
export type Manifest = {
  build: string;
  js: string;
  /** The deferred stylesheet (what only the script shows, and print): it comes with the page's scripts, after the first paint. */
  css: string;
  /**
   * The critical stylesheet's text, inlined in every page's <head>; the CSP allows it by
   * its hash (security-headers.ts#styleHashSource).
   */
  criticalCss: string;
  /** The site's icon, as a `data:` URL (no request before the first paint). */
  icon: string;
  preload: string[];
  /** Each locale's search index asset (none in a development build: the server makes them). */
  search: Record<string, string>;
  /**
   * Share images (Open Graph), keyed by their source file under the locales
   * folder (`de/share.png` is German's default image): the hashed asset path and
   * the pixel size. Filled by the build; empty when the site has none.
   */
  images: Record<string, { path: string; width: number; height: number }>;
  /** The root chooser's script, for a static export's `/` (src/client/locale-chooser.ts); null in a build from before it. */
  chooser: string | null;
};

export const MANIFEST_FILE = 'manifest.json';

export function readManifest(distDir: string): Manifest {
  const file = join(distDir, MANIFEST_FILE);
  let data: Partial<Manifest>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file} is missing or unreadable: run \`npm run build\` first`);
  }
  if (
    typeof data.build !== 'string' ||
    typeof data.js !== 'string' ||
    typeof data.css !== 'string' ||
    typeof data.criticalCss !== 'string' ||
    typeof data.icon !== 'string'
  ) {
    throw new Error(`${file} is incomplete: run \`npm run build\` again`);
  }
  // Inlined in a <style>: text that could end the element is refused, not escaped (CSS has no entities).
  if (/<\/style/i.test(data.criticalCss)) throw new Error(`${file}: the critical CSS contains "</style": it cannot be inlined`);
  return {
    build: data.build,
    js: data.js,
    css: data.css,
    criticalCss: data.criticalCss,
    icon: data.icon,
    preload: Array.isArray(data.preload) ? data.preload : [],
    search: typeof data.search === 'object' && data.search !== null ? data.search : {},
    images: typeof data.images === 'object' && data.images !== null ? data.images : {},
    chooser: typeof data.chooser === 'string' ? data.chooser : null,
  };
}
