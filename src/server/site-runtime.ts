import { indexLocales } from '../i18n/locales.ts';
import type { Config } from './config.ts';
import { loadSite } from './content/site.ts';
import { createDecider, type Decider } from './decide.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { loadMessages } from './messages.ts';
import { buildPageStore, type PageStore } from './page-store.ts';
import { buildRobots, buildSitemap } from './sitemap.ts';
import { StoredBody } from './compression.ts';

/** Everything start-up prepares so that requests only look things up. */
export type SiteRuntime = {
  manifest: Manifest;
  store: PageStore;
  decide: Decider;
  sitemap: StoredBody;
  robots: StoredBody;
};

export function prepareSite(config: Config): SiteRuntime {
  const manifest = readManifest(config.distDir);
  const site = loadSite(config.localesDir, config.locales, config.defaultLocale);
  const messages = loadMessages(config.localesDir, config.locales, config.defaultLocale);
  const store = buildPageStore({ site, messages, publicUrl: config.publicUrl, build: manifest.build });
  return {
    manifest,
    store,
    decide: createDecider(store, config.locales, indexLocales(config.locales), config.defaultLocale),
    sitemap: new StoredBody(Buffer.from(buildSitemap(store, config.publicUrl))),
    robots: new StoredBody(Buffer.from(buildRobots(config.publicUrl))),
  };
}
