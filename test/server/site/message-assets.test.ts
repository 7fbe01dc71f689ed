import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareMessageAssets } from '../../../src/server/site/message-assets.ts';
import { buildPageStore } from '../../../src/server/pages/page-store.ts';
import { MESSAGES, makePage, makeSite } from '../../helpers/content.ts';

/** Message assets of a site in en (default) and de, with de's messages as given. */
async function assetsWith(deMessages: Record<string, string>) {
  const { site, messages } = await makeSite({
    en: { 'pages/index.md': makePage({ title: 'Welcome' }) },
    de: { 'pages/index.md': makePage({ title: 'Willkommen' }), 'messages.json': deMessages },
  });
  return prepareMessageAssets(buildPageStore({ site, messages, publicUrl: 'https://example.test', build: 'b1' }), site.locales);
}

test("each locale's messages are served at a content-hashed asset URL, as the compiled catalog, with the default locale's fallbacks", async () => {
  const assets = await assetsWith({ ...MESSAGES, 'site.name': 'Seite' });
  assert.deepEqual(Object.keys(assets.urls), ['en', 'de']);
  assert.match(assets.urls.de!, /^\/assets\/messages-de-[0-9A-F]{8}\.json$/);
  const de = JSON.parse(assets.asset(assets.urls.de!)!.identity.toString());
  assert.equal(de.locale, 'de');
  assert.equal(de.defaultLocale, 'en');
  assert.deepEqual(de.messages['site.name'], [{ type: 0, value: 'Seite' }]);
  // Plain text always formats: only a message with arguments brings the en one to fall back on.
  assert.deepEqual(Object.keys(de.defaults).sort(), ['content.code', 'content.footnoteBack', 'content.headingLink', 'content.table']);
  assert.deepEqual(JSON.parse(assets.asset(assets.urls.en!)!.identity.toString()).defaults, {});
  assert.equal(assets.asset('/assets/messages-de.json'), undefined);
});

test("a change to one locale's messages renames that locale's file and no other", async () => {
  const before = await assetsWith({ ...MESSAGES, 'site.name': 'Seite' });
  const after = await assetsWith({ ...MESSAGES, 'site.name': 'Website' });
  assert.notEqual(after.urls.de, before.urls.de);
  assert.equal(after.urls.en, before.urls.en);
  assert.equal(after.asset(before.urls.de!), undefined, 'the old name is not served');
});
