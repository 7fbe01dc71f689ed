import { indexLocales } from '../i18n/locales.ts';
import type { Config } from './config.ts';
import { contentFingerprint, readSnapshot } from './content/snapshot.ts';
import { createDecider, type Decider } from './decide.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { buildPageStore, type PageStore } from './page-store.ts';
import { buildRobots, buildSitemap } from './sitemap.ts';
import { StoredBody } from './compression.ts';

/** Everything start-up prepares so that requests only look things up. */
export type PreparedSite = {
  manifest: Manifest;
  store: PageStore;
  decide: Decider;
  sitemap: StoredBody;
  robots: StoredBody;
};

export async function prepareSite(config: Config): Promise<PreparedSite> {
  const manifest = readManifest(config.distDir);
  const { site, messages } = await loadContent(config);
  const store = buildPageStore({ site, messages, publicUrl: config.publicUrl, build: manifest.build });
  return {
    manifest,
    store,
    decide: createDecider(store, config.locales, indexLocales(config.locales), config.defaultLocale),
    sitemap: new StoredBody(Buffer.from(buildSitemap(store, config.publicUrl))),
    robots: new StoredBody(Buffer.from(buildRobots(config.publicUrl))),
  };
}

/**
 * The content as built, when the folder is unchanged since the build; otherwise
 * compiled now (the Markdown and messages modules are loaded only then).
 */
async function loadContent({ localesDir, locales, defaultLocale, distDir }: Config) {
  const snapshot = readSnapshot(distDir, contentFingerprint(localesDir, locales, defaultLocale));
  if (snapshot) return snapshot;
  const [{ loadSite }, { loadMessages }] = await Promise.all([import('./content/site.ts'), import('./messages.ts')]);
  const messages = loadMessages(localesDir, locales, defaultLocale);
  return { site: loadSite(localesDir, locales, defaultLocale, messages), messages };
}
