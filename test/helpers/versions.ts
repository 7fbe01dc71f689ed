import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MESSAGES } from './content.ts';

/** Files by path under a folder: text, bytes, or an object written as JSON. */
export type Files = Record<string, string | Uint8Array | object>;

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A content root as a versioned site has it: `locales/<locale>/...` (each with MESSAGES
 * unless given) and `versions/...` (versions.json and each version's folders), both
 * written from path -> content. Returns the root and its `locales` folder.
 */
export function makeVersionedRoot(locales: Record<string, Files>, versions: Files): { root: string; localesDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'polysite-versions-'));
  made.push(root);
  for (const [locale, files] of Object.entries(locales)) {
    mkdirSync(join(root, 'locales', locale, 'pages'), { recursive: true });
    write(join(root, 'locales', locale), { 'messages.json': MESSAGES, ...files });
  }
  write(join(root, 'versions'), versions);
  return { root, localesDir: join(root, 'locales') };
}

/** versions.json's text, one key a line (so a test can name a line). */
export function versionsJson(current: { label: string; released: boolean }, versions: Record<string, unknown>[]): string {
  const entries = versions.map((version) => `    ${JSON.stringify(version)}`).join(',\n');
  return `{\n  "current": ${JSON.stringify(current)},\n  "versions": [\n${entries}\n  ]\n}\n`;
}

function write(dir: string, files: Files): void {
  for (const [file, content] of Object.entries(files)) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content));
  }
}
