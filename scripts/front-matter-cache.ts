// Front matter parsed in the last build, by its YAML text (front-matter.ts#FrontMatterMemo),
// so a locale built again reads its files but parses only the front matter that changed:
// parsing the YAML of every page was the largest part of loading a locale whose pages all
// came from the page cache. One file per site and serving locale, with the compiler's code
// hash (the parser and its checks are in it); written again only when an entry was added
// or one went unused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrontMatterMemo } from '../src/server/content/front-matter.ts';
import { cacheFileName, saveCacheFile } from '../src/server/content/cache-file.ts';

const FORMAT = 1;

export function openFrontMatterCache(
  dir: string,
  localesDir: string,
  serving: readonly string[],
  code: string,
): FrontMatterMemo & { save(): void } {
  const file = join(dir, `${cacheFileName(localesDir, serving.join(','))}.json`);
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
      saveCacheFile(file, added || used.size !== kept.size, () => JSON.stringify({ format: FORMAT, code, entries: [...used] }));
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
