// Each locale's UI messages (with the default locale's fallbacks: i18n/intl.ts#localeMessages)
// as a file of its own, for the browser: a content-hashed
// URL under /assets (cached for a year, shared by every page of the locale), which a
// document names and preloads instead of carrying 4-6 KB of messages in every page.
import type { MessageUrls } from '../../routes/types.ts';
import { StoredBody } from '../http/stored-body.ts';
import { hashedAssetUrl } from './hashed-asset.ts';
import type { PageStore } from '../pages/page-store.ts';

export type MessageAssets = {
  /** Each locale's messages URL: `/assets/messages-<locale>-<hash>.json`. */
  urls: MessageUrls;
  /** A messages file served from memory at its URL; undefined for any other path. */
  asset(path: string): StoredBody | undefined;
};

/** Made at start-up from the compiled messages: what the server serves and the static export writes. */
export function prepareMessageAssets(store: Pick<PageStore, 'messages'>, locales: readonly string[]): MessageAssets {
  const urls: MessageUrls = {};
  const bodies = new Map<string, StoredBody>();
  for (const locale of locales) {
    const json = JSON.stringify(store.messages(locale));
    const url = hashedAssetUrl(`messages-${locale}`, json);
    urls[locale] = url;
    bodies.set(url, new StoredBody(json));
  }
  return { urls, asset: (path) => bodies.get(path) };
}
