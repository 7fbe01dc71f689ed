// Front matter parsed in the last build, by its YAML text (front-matter.ts#FrontMatterMemo),
// so a locale built again reads its files but parses only the front matter that changed:
// parsing the YAML of every page was the largest part of loading a locale whose pages all
// came from the page cache. One file per site and serving locale, with the compiler's code
// hash (the parser and its checks are in it); written again only when an entry was added
// or one went unused.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { FrontMatterMemo } from '../src/server/content/front-matter.ts';

const FORMAT = 1;

export function openFrontMatterCache(
  dir: string,
  localesDir: string,
  serving: readonly string[],
  code: string,
): FrontMatterMemo & { save(): void } {
  const name = createHash('sha256')
    .update(`${resolve(localesDir)}\0${serving.join(',')}`)
    .digest('hex')
    .slice(0, 24);
  const file = join(dir, `${name}.json`);
  const kept = readKept(file, code);
  const used = new Map<string, string>();
  let added = false;
  return {
    get(yaml) {
      const parsed = used.get(yaml) ?? kept.get(yaml);
      if (parsed !== undefined) used.set(yaml, parsed);
      return parsed;
    },
    set(yaml, parsed) {
      used.set(yaml, parsed);
      added = true;
    },
    save() {
      if (!added && used.size === kept.size) {
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch {
          // None yet: nothing to mark.
        }
        return;
      }
      const temporary = `${file}.${process.pid}-${threadId}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(temporary, JSON.stringify({ format: FORMAT, code, entries: [...used] }));
        renameSync(temporary, file);
      } catch {
        // A cache that cannot be written costs the next build time, never this one's output.
        rmSync(temporary, { force: true });
      }
    },
  };
}

function readKept(file: string, code: string): Map<string, string> {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; code?: unknown; entries?: unknown };
    if (kept.format !== FORMAT || kept.code !== code || !Array.isArray(kept.entries)) return new Map();
    return new Map(
      kept.entries.filter(
        (entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string',
      ),
    );
  } catch {
    return new Map();
  }
}
