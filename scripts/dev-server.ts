/**
 * The server `npm run dev` runs behind its proxy (scripts/dev.ts), built with the dev
 * bundle into .dev/server/dev-server.js. It serves the site as the production server
 * does (the same app), but keeps its compiled content: told that something under
 * locales/ changed, it compiles again what changed (site.ts's memo reuses every page
 * whose file, paths and labels are the same), makes the site from it and swaps it in.
 * The process, its loaded modules and open connections stay; only a change of code,
 * of the locales themselves or of an image (which the build copies) restarts it.
 *
 * A restarted server does not compile the content again: its first load takes each page
 * from the pages the last one compiled (kept on disk, page-cache.ts), found by every input
 * of its compile and the hash of the compiler's code (scripts/compiler-code.ts, taken by
 * dev.ts at each rebuild), so only a change to the compiler itself compiles every page.
 *
 * Talks to dev.ts over IPC: it is told `{ type: 'content' }`, and answers each load
 * (the first included) with `ready`, `problem` (the content's mistakes, with file and
 * line; the last good site stays loaded) or `restart` (the set of locales changed).
 * It starts as soon as its own bundle is written, while the browser's is still being
 * made: its first load compiles the content, then waits for `{ type: 'built' }` (the
 * build's manifest is written) to make the site.
 */
import { createServer, type RequestListener } from 'node:http';
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { keepSearchIndexes, seedSearchMemo } from './dev-search-cache.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { gitDatesReader } from './dev-dates.ts';
import { type Config, loadConfig } from '../src/server/config.ts';
import { createSite } from '../src/server/http/app.ts';
import { Lifecycle } from '../src/server/http/lifecycle.ts';
import { createLogger } from '../src/server/http/log.ts';
import { loadMessages, type MessageCatalog } from '../src/server/content/messages.ts';
import { createSiteMemo, loadSite, type SiteMemo } from '../src/server/content/site.ts';
import { openPageCache, type PageCache } from '../src/server/content/page-cache.ts';
import type { FrontMatterMemo } from '../src/server/content/front-matter.ts';
import { openFrontMatterCache } from './front-matter-cache.ts';
import { type Manifest, readManifest } from '../src/server/site/manifest.ts';
import type { SearchMemo, SiteSearch } from '../src/server/site/site-search.ts';
import { type LoadedContent, prepareContent } from '../src/server/site/prepare-site.ts';

/** `changed`: the paths under the content the watcher saw change since the last message; absent, every file is checked. */
export type ToDevServer = { type: 'content' | 'built'; changed?: string[] };
export type FromDevServer =
  | { type: 'listening'; port: number }
  /** `reused`: at a server's first load with the page cache, how many of its `pages` came from it. */
  | { type: 'ready'; ms: number; reused?: { pages: number; of: number } }
  | { type: 'problem'; message: string }
  | { type: 'restart'; reason: string };

/**
 * The one door through which the dev server reads the author's files: what it
 * refuses here is shown in the overlay.
 */
function loadContent(config: Config, memo: SiteMemo, kept: KeptBefore | null): LoadedContent {
  const messages = messagesNow(config);
  try {
    const site = loadSite(config.localesDir, config.locales, config.defaultLocale, messages, {
      memo,
      drafts: config.drafts,
      dates: dates(),
      ...(unread && { changed: unread }),
      ...(kept && { pageCache: kept.pages, frontMatter: kept.frontMatter }),
    });
    unread = new Set();
    return { site, messages, built: false };
  } catch (error) {
    // A load that ran to its end (refusing the content) has seen every change; one cut short, not.
    if (error instanceof ContentError) unread = new Set();
    throw error;
  }
}

/**
 * The messages as last checked, reused while only Markdown pages changed: checking every
 * locale's messages against the default's is most of a page's reload on a small site.
 * Cleared when they fail the check, so a broken file is read again until it is fixed.
 */
let messagesKept: MessageCatalog | null = null;

function messagesNow(config: Config): MessageCatalog {
  const onlyPages = unread !== undefined && [...unread].every((path) => path.endsWith('.md'));
  if (messagesKept && onlyPages) return messagesKept;
  messagesKept = null;
  messagesKept = loadMessages(config.localesDir, config.locales, config.defaultLocale);
  return messagesKept;
}

/**
 * What the last server made, for this one's first load (then `memo` and `searchMemo` keep
 * it): the pages it compiled, the front matter it parsed (the build's cache of it,
 * front-matter-cache.ts: parsing every page's YAML was most of a first load whose pages all
 * came from the cache) and the search indexes it made (dev-search-cache.ts), when dev.ts
 * names the folder they are kept in and the compiler's code hash (none with `--no-cache`).
 * They are written again after that load, the pages and front matter whether or not it failed.
 */
type KeptBefore = {
  code: string;
  pages: PageCache & { save(): void; readonly reused: number };
  frontMatter: FrontMatterMemo & { save(): void };
  searchFile: string;
};

function keptBefore(config: Config): KeptBefore | null {
  const dir = process.env.POLYSITE_DEV_PAGE_CACHE;
  const code = process.env.POLYSITE_COMPILER_CODE;
  if (!dir || !code) return null;
  const name = createHash('sha256').update(resolve(config.localesDir)).digest('hex').slice(0, 24);
  return {
    code,
    pages: openPageCache(dir, config.localesDir, config.locales, code),
    frontMatter: openFrontMatterCache(dir, config.localesDir, config.locales, code),
    searchFile: join(dir, `${name}.search.json.gz`),
  };
}

/**
 * The files changed since the last load that ran to its end (see LoadSiteOptions.changed);
 * undefined: every file is checked. Only for a content folder given as an absolute path,
 * the form in which the watcher names its files.
 */
let unread: Set<string> | undefined;

function noteChanged(changed: readonly string[] | undefined): void {
  if (!changed || !isAbsolute(config.localesDir)) unread = undefined;
  else if (unread) for (const path of changed) unread.add(path);
}

/** `then`: run once the message is sent (work the answer need not wait for). */
function tell(message: FromDevServer, then?: () => void): void {
  if (process.send) process.send(message, undefined, undefined, () => then?.());
  else then?.();
}

const config = loadConfig();
const log = createLogger(undefined, config.logLevel);
/**
 * The build's manifest, read when dev.ts says the build is whole: the first load waits for
 * it. A later build (one that left this server's bundle as it was: only the browser's code
 * or an image changed) is read the same way, and the site made again with it.
 */
let firstBuild: ((manifest: Promise<Manifest>) => void) | null = null;
let manifest = new Promise<Manifest>((resolve) => {
  firstBuild = resolve;
});

function readBuild(): void {
  const read = new Promise<Manifest>((resolve) => resolve(readManifest(config.distDir)));
  // A failure is reported by the load that waits for it.
  read.catch(() => {});
  if (firstBuild) {
    firstBuild(read);
    firstBuild = null;
    return;
  }
  manifest = read;
  void reload();
}
const lifecycle = new Lifecycle();
const memo = createSiteMemo();
const dates = gitDatesReader(config.localesDir);
const searchMemo: SearchMemo = new Map();
let firstLoad = keptBefore(config);

const NOT_YET: RequestListener = (_req, res) => {
  res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('The content does not load yet.\n');
};
let handle: RequestListener = NOT_YET;

/** Compiles the content as it is now and, when it loads, serves it from the next request on. */
async function reload(): Promise<void> {
  const started = performance.now();
  // The first load only: the later ones reuse what `memo` and `searchMemo` hold.
  const kept = firstLoad;
  firstLoad = null;
  let loaded: LoadedContent;
  let reused: { pages: number; of: number } | undefined;
  let searchHeld: ReadonlySet<string> = new Set();
  try {
    const now = loadConfig();
    if (now.locales.join() !== config.locales.join()) {
      tell({ type: 'restart', reason: `the locales are now ${now.locales.join(', ')}` });
      return;
    }
    loaded = loadContent(config, memo, kept);
    if (kept) {
      reused = { pages: kept.pages.reused, of: [...loaded.site.pages.values()].reduce((sum, pages) => sum + pages.size, 0) };
      searchHeld = seedSearchMemo(kept.searchFile, kept.code, loaded.site, searchMemo);
    }
    const site = prepareContent(config, await manifest, loaded, { log, searchMemo });
    // A new app: its render caches start empty, so nothing compiled before the edit is served.
    handle = withLaterIndexes(site.search, createSite({ config, site, log, lifecycle, relay: null }).handle);
  } catch (error) {
    tell({ type: 'problem', message: (error as Error).message }, () => kept && saveKept(kept));
    return;
  }
  // Kept once the answer is on its way: the browser's reload need not wait for it.
  tell({ type: 'ready', ms: Math.round(performance.now() - started), ...(reused && { reused }) }, () => {
    if (!kept) return;
    saveKept(kept);
    try {
      keepSearchIndexes(kept.searchFile, kept.code, loaded.site, searchMemo, searchHeld);
    } catch (error) {
      // Not kept costs the next start time, never this server its site.
      process.stderr.write(`polysite dev: the search indexes were not kept (${(error as Error).message})\n`);
    }
  });
}

/** Writes the pages and front matter the first load used, for the next server. */
function saveKept(kept: KeptBefore): void {
  kept.pages.save();
  kept.frontMatter.save();
}

/** A search index's URL (site/hashed-asset.ts): its name, then the hash of its bytes. */
const INDEX_URL = /^(\/assets\/search-[^/]+-)[0-9A-F]{8}\.json$/;

/**
 * A tab updated in place after an edit (dev.ts) still names the search indexes of the
 * document it loaded, which an edit of a page replaced: such a URL is sent on to the
 * index of the same name as it is now, so the tab's search box finds the edit.
 */
function withLaterIndexes(search: SiteSearch, next: RequestListener): RequestListener {
  const now = new Map<string, string>();
  for (const url of Object.values(search.indexes)) {
    const name = url && INDEX_URL.exec(url)?.[1];
    if (name) now.set(name, url);
  }
  return (req, res) => {
    const path = req.url ?? '';
    const name = INDEX_URL.exec(path)?.[1];
    const later = name && now.get(name);
    if (!later || later === path || search.asset(path)) return next(req, res);
    res.writeHead(307, { Location: later, 'Cache-Control': 'no-store' }).end();
  };
}

process.on('message', (message: ToDevServer) => {
  // The build this server was started for: its first load has nothing of its own to check again.
  if (message.type === 'built' && firstBuild) return readBuild();
  noteChanged(message.changed);
  if (message.type === 'built') readBuild();
  else void reload();
});
// The proxy's IPC channel closes when it stops: so does this server.
process.on('disconnect', () => process.exit(0));

const server = createServer((req, res) => handle(req, res));
server.listen(0, '127.0.0.1', () => {
  tell({ type: 'listening', port: (server.address() as { port: number }).port });
  void reload();
});
