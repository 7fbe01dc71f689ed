import { indexLocales } from '../../i18n/locales.ts';
import type { Config } from '../config.ts';
import { contentFingerprint, readSnapshot } from '../content/snapshot.ts';
import { createDecider, type Decider } from '../pages/decide.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { buildPageStore, type PageStore } from '../pages/page-store.ts';
import { prepareSearch, type SearchMemo, type SiteSearch } from './site-search.ts';
import { type MessageAssets, prepareMessageAssets } from './message-assets.ts';
import { buildRobots, buildSitemap } from './sitemap.ts';
import { StoredBody } from '../http/stored-body.ts';
import { buildFeeds, type Feeds } from './feeds.ts';
import { checkShareImages } from './share-image.ts';
import { makeShareTags } from './share-tags.ts';
import type { Site, SourcePage } from '../content/site.ts';
import type { MessageCatalog } from '../content/messages.ts';
import type { Logger } from '../http/log.ts';
import { makeServerIntls } from './server-intl.ts';
import { buildLlmsFiles, type LlmsFiles } from './llms.ts';
import { type HeadScriptAsset, headScriptAsset } from '../pages/head-script.ts';

/** Everything start-up prepares so that requests only look things up. */
export type PreparedSite = {
  manifest: Manifest;
  store: PageStore;
  decide: Decider;
  search: SiteSearch;
  messageAssets: MessageAssets;
  /** The head's script (the theme, and the loader of the page's scripts), served from memory at its hashed URL. */
  headScript: HeadScriptAsset;
  /** Made on first use: at 10,000 pages it is 1.6 MB of XML and ~100 ms, which start-up need not wait for. */
  sitemap: () => StoredBody;
  robots: StoredBody;
  feeds: Feeds;
  /** llms.txt, llms-full.txt and each page's Markdown twin, per locale. */
  llms: LlmsFiles;
};

/** `log`: where a message that fails to format is reported (once per locale and key); stderr without one. */
export async function prepareSite(config: Config, log?: Pick<Logger, 'warn'>): Promise<PreparedSite> {
  return prepareContent(config, readManifest(config.distDir), await loadContent(config), { log });
}

/** The compiled content ready to serve (`npm run dev` compiles it itself, and again after each edit). */
export type LoadedContent = {
  site: Site;
  messages: MessageCatalog;
  built: boolean;
  /** The pages that name a share image of their own, when the content knows them without reading every page (the built snapshot). */
  withImages?: Iterable<readonly [string, SourcePage]>;
};

/** `searchMemo`: `npm run dev` keeps each locale's search index while its pages stay the same (see site-search.ts). */
export function prepareContent(
  config: Config,
  manifest: Manifest,
  { site, messages, built, withImages }: LoadedContent,
  { log, searchMemo }: { log?: Pick<Logger, 'warn'> | undefined; searchMemo?: SearchMemo } = {},
): PreparedSite {
  checkShareImages(site, manifest.images, withImages);
  const intls = makeServerIntls(messages, config.defaultLocale, log);
  const siteName = (locale: string) => intls.get(locale)!.formatMessage({ id: 'site.name' });
  const feeds = buildFeeds({ site, siteName, publicUrl: config.publicUrl });
  const share = makeShareTags({
    publicUrl: config.publicUrl,
    images: manifest.images,
    links: { pathOf: site.paths.pathOf, feedOf: feeds.linkOf },
    defaultLocale: config.defaultLocale,
  });
  const store = buildPageStore({
    site,
    messages,
    intls,
    publicUrl: config.publicUrl,
    build: manifest.build,
    share,
    editUrl: config.editUrl,
  });
  const search = prepareSearch({
    site,
    manifest,
    distDir: config.distDir,
    built,
    maxDownloadBytes: config.searchIndexMaxKb * 1024,
    memo: searchMemo,
  });
  return {
    manifest,
    store,
    search,
    messageAssets: prepareMessageAssets(store, config.locales),
    headScript: headScriptAsset(),
    decide: createDecider(store, site.paths, config.locales, indexLocales(config.locales), config.defaultLocale),
    sitemap: once(() => new StoredBody(Buffer.from(buildSitemap(store, site.paths, config.publicUrl)))),
    robots: new StoredBody(Buffer.from(buildRobots(config.publicUrl))),
    feeds,
    llms: buildLlmsFiles({ site, intls, publicUrl: config.publicUrl, fullMaxBytes: config.llmsFullMaxKb * 1024 }),
  };
}

/**
 * The content as built, when the folder is unchanged since the build; otherwise
 * compiled now (the Markdown and messages modules are loaded only then).
 */
async function loadContent({ localesDir, locales, defaultLocale, distDir, drafts }: Config): Promise<LoadedContent> {
  // The build leaves drafts out: a server that shows them compiles the content itself.
  const snapshot = drafts === 'hide' ? readSnapshot(distDir, contentFingerprint(localesDir, locales, defaultLocale)) : null;
  // `built`: the content is what the build compiled (and indexed for search).
  if (snapshot) return { ...snapshot, built: true };
  // The same check as the build's (content/load-content.ts): start-up refuses what the build refuses.
  const { loadContent: check } = await import('../content/load-content.ts');
  return { ...check(localesDir, locales, defaultLocale, { drafts }), built: false };
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
