// `npm run export`: the whole site as files, for a host with nothing running per
// request. Every document is the server's own render of that URL (the same decide
// step, the same renderer, in crawler mode: the complete document), written as soon
// as it is rendered, so the site is never held in memory at once.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { LISTING_SEGMENT } from '../routes/match.ts';
import { dataUrl } from '../routes/page-data.ts';
import { searchPath } from '../routes/search/query.ts';
import type { PageData } from '../routes/types.ts';
import type { Config } from '../server/config.ts';
import { pageDataJson } from '../server/pages/page-data-route.ts';
import { browserMonitoring, documentRenderer } from '../server/pages/page-document.ts';
import type { PageStore } from '../server/pages/page-store.ts';
import { prepareSite } from '../server/site/prepare-site.ts';
import { chooserPage } from './chooser-page.ts';
import { EXPORT_MARKER, ExportError, fileForPath, OutputFolder } from './files.ts';
import { headersFile } from './hosts/headers-file.ts';
import { NGINX_HTTP_FILE, NGINX_SERVER_FILE, nginxHttpConf, nginxServerConf } from './hosts/nginx.ts';
import { NOJEKYLL, redirectsFile } from './hosts/redirects-file.ts';
import { hostTables } from './hosts/tables.ts';

export type ExportOptions = {
  config: Config;
  outDir: string;
  /** Origin of a `SERVE=relay` process the host configurations proxy MONITORING_PATH to; null: none. */
  relay: string | null;
};

export type ExportSummary = {
  /** The site's pages (every locale), each as a document and its page data. */
  pages: number;
  files: number;
  bytes: number;
  seconds: number;
};

export async function exportSite({ config, outDir, relay }: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  // The site first: a content or build error leaves an earlier export as it was.
  const site = await prepareSite(config);
  clearOutput(outDir);
  const { manifest, store, decide, search, messageAssets } = site;
  const { build } = manifest;
  const out = new OutputFolder(outDir);
  out.write(EXPORT_MARKER, `Written by polysite's npm run export (build ${build}): the next export empties this folder.\n`);
  // No server to ask on a static host: every locale's search index is one the browser downloads,
  // however large. The build writes no file of an index too large to download (the server
  // searches it itself): that one is made now, written at once and let go.
  // One per search scope: each locale, and each older docs version in it (search/query.ts#searchScope), in the server's order.
  const indexes = Object.fromEntries(
    Object.keys(search.indexes).map((scope) => {
      const served = search.indexes[scope];
      if (served) return [scope, served];
      const { url, made } = search.downloadable(scope);
      if (made) out.write(fileForPath(url), made);
      return [scope, url];
    }),
  );
  const render = documentRenderer({
    store,
    manifest,
    monitoring: browserMonitoring(config, build),
    searchIndexes: indexes,
    messageUrls: messageAssets.urls,
  });
  const documentOf = async (page: PageData): Promise<Buffer> => {
    const errors: unknown[] = [];
    // Crawler mode: the complete document, as the server sends it to a crawler.
    const rendered = await render(page, { waitForAll: true, timeoutMs: config.renderTimeoutMs, onError: (error) => errors.push(error) });
    const bytes = Buffer.isBuffer(rendered) ? rendered : await readAll(rendered);
    // A turn of the event loop: React leaves a setImmediate behind at each render (its early preloads),
    // and a loop of renders that only ever awaits promises never reaches the phase that runs them:
    // each one would keep its whole render alive until the export ends (about 23 KB a page).
    await new Promise((resolve) => setImmediate(resolve));
    if (errors.length) throw new ExportError(`rendering ${page.path || page.locale} failed: ${String(errors[0])}`);
    return bytes;
  };

  // Every page of every locale, as the server answers its URL.
  let pages = 0;
  for (const { path } of store.entries()) {
    const decision = decide({ path, search: '', cookie: undefined, acceptLanguage: undefined });
    if (decision.kind !== 'page' || decision.page.status !== 200) {
      throw new ExportError(
        `${path} is listed as a page, but the server answers it with ${decision.kind === 'page' ? decision.page.status : decision.kind}`,
      );
    }
    out.write(fileForPath(path, '.html'), await documentOf(decision.page));
    out.write(fileForPath(dataUrl(build, path)), pageDataJson(decision.page, indexes));
    pages += 1;
  }
  // A long section's further listing pages (`<section>/~/2` on), the same way: `~/2.html` beside the section's folder.
  const listingEntries = [...store.listingPages()];
  const listingPages = listingEntries.map((entry) => entry.path);
  for (const path of listingPages) {
    const decision = decide({ path, search: '', cookie: undefined, acceptLanguage: undefined });
    if (decision.kind !== 'page' || decision.page.status !== 200)
      throw new ExportError(`${path}: a listing page the server does not answer`);
    out.write(fileForPath(path, '.html'), await documentOf(decision.page));
    out.write(fileForPath(dataUrl(build, path)), pageDataJson(decision.page, indexes));
    pages += 1;
  }

  for (const locale of config.locales) {
    // One search page answers every query: the browser runs it (and says, without JavaScript, that it needs it).
    const searchPage = store.searchPage(locale, '', { total: 0, hits: [] });
    if (searchPage.screen.kind === 'search') searchPage.screen.staticHost = true;
    const searchUrl = searchPath(locale, '');
    out.write(fileForPath(searchUrl, '.html'), await documentOf(searchPage));
    out.write(fileForPath(dataUrl(build, searchUrl)), pageDataJson(searchPage, indexes));
    // One not-found page per locale answers every missing path: it names none.
    const notFound = await documentOf(store.notFound(locale, ''));
    out.write(`${locale}/404.html`, notFound);
    if (locale === config.defaultLocale) out.write('404.html', notFound);
  }

  // The content-hashed client files (not the build's .br/.gz siblings: hosts compress themselves),
  // each locale's messages, the head script, and each locale's search index as the server serves it (made now if the
  // content changed since the build).
  const assets = join(config.distDir, 'client', 'assets');
  for (const name of readdirSync(assets)) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    out.copy(join(assets, name), `assets/${name}`);
  }
  for (const url of Object.values(messageAssets.urls)) out.write(fileForPath(url), messageAssets.asset(url)!.identity);
  out.write(fileForPath(site.headScript.url), site.headScript.body.identity);
  for (const [locale, url] of Object.entries(indexes)) {
    if (url && existsSync(join(outDir, url))) continue;
    const made = url && search.asset(url);
    if (!made) throw new ExportError(`no search index for ${locale}: run \`npm run build\` (npm run export does) and export again`);
    out.write(fileForPath(url), made.identity);
  }
  out.write('sitemap.xml', site.sitemap().identity);
  for (const path of site.feeds.paths) out.write(fileForPath(path), site.feeds.at(path)!.body.identity);
  out.write('robots.txt', site.robots.identity);
  // llms.txt, llms-full.txt and each page's Markdown twin (site/llms.ts).
  for (const path of site.llms.paths()) {
    const body = site.llms.at(path)!.body();
    out.write(fileForPath(path), typeof body === 'string' ? body : await readAll(body));
  }

  const home = decide({ path: `/${config.defaultLocale}`, search: '', cookie: undefined, acceptLanguage: undefined });
  if (home.kind !== 'page') throw new ExportError(`/${config.defaultLocale} is not a page`);
  out.write('index.html', chooserPage({ home: home.page, intl: store.intl(config.defaultLocale), manifest }));

  const tables = hostTables(config, {
    relay,
    build,
    pages: [...[...store.entries()].map((entry) => entry.path), ...listingPages, ...config.locales.map((locale) => searchPath(locale, ''))],
    feeds: site.feeds.paths,
    moved: [...movedPaths(store, config.defaultLocale), ...movedListingPaths(store, listingEntries, config.defaultLocale)],
    criticalCss: manifest.criticalCss,
  });
  out.write('_headers', headersFile(tables));
  out.write('_redirects', redirectsFile(tables));
  // nginx reads these from where the operator's configuration includes them; its rules never serve them.
  out.write(NGINX_HTTP_FILE, nginxHttpConf(tables));
  out.write(NGINX_SERVER_FILE, nginxServerConf(tables));
  // GitHub Pages runs Jekyll unless told not to, and Jekyll leaves out folders whose name starts with `_` (`_data`).
  out.write(NOJEKYLL, '');

  return { pages, files: out.files, bytes: out.bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * Where the server answers a 308 into a localized path: the default locale's path
 * of a page under a locale that serves it elsewhere (`/de/about` -> `/de/ueber-uns`).
 */
export function movedPaths(store: Pick<PageStore, 'entries'>, defaultLocale: string): { from: string; to: string }[] {
  const entries = [...store.entries()];
  const defaults = new Map(entries.filter((entry) => entry.locale === defaultLocale).map((entry) => [entry.key, entry.path]));
  const moved: { from: string; to: string }[] = [];
  for (const { locale, key, path } of entries) {
    const original = defaults.get(key);
    if (original === undefined || locale === defaultLocale) continue;
    const from = `/${locale}${original.slice(defaultLocale.length + 1)}`;
    if (from !== path) moved.push({ from, to: path });
  }
  return moved;
}

/**
 * The server's 308s into a listing's numbered pages: `<section>/~/1` to the section's own
 * page, and the default locale's path of a numbered page under a locale that localized the
 * section (`/de/docs/big/~/2` -> `/de/docs/gross/~/2`).
 */
export function movedListingPaths(
  store: Pick<PageStore, 'entries'>,
  listingPages: readonly { locale: string; key: string; number: number; path: string }[],
  defaultLocale: string,
): { from: string; to: string }[] {
  const defaults = new Map([...store.entries()].filter((entry) => entry.locale === defaultLocale).map((entry) => [entry.key, entry.path]));
  const moved: { from: string; to: string }[] = [];
  for (const { locale, key, number, path } of listingPages) {
    const section = path.slice(0, -`/${LISTING_SEGMENT}/${number}`.length);
    if (number === 2) moved.push({ from: `${section}/${LISTING_SEGMENT}/1`, to: section });
    const original = defaults.get(key);
    if (original === undefined || locale === defaultLocale) continue;
    const from = `/${locale}${original.slice(defaultLocale.length + 1)}/${LISTING_SEGMENT}/${number}`;
    if (from !== path) moved.push({ from, to: path });
  }
  return moved;
}

/** Empties the output folder; refuses one that holds anything but an earlier export. */
function clearOutput(dir: string): void {
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    if (entries.length > 0 && !entries.includes(EXPORT_MARKER)) {
      throw new ExportError(`${dir} is not empty and holds no earlier export: choose another folder with --out`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
