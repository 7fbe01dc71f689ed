import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carryForward, readRecord, sourceFingerprint, writeRecord } from '../../../src/server/content/translation-record.ts';
import { translationRows } from '../../../src/server/content/translation-status.ts';
import { makeLocales, makePage, makeSite } from '../../helpers/content.ts';

const ROUTING = { title: 'Routing', description: 'Which URLs.', body: 'Pages live under a locale.\n' };
const fingerprint = sourceFingerprint(ROUTING);

/** A site in en (default), de and fr with the routing page; de and fr translate it, with these records. */
async function siteWith({ en = ROUTING.body, deRecord, fr = true }: { en?: string; deRecord?: string; fr?: boolean }) {
  const { site } = await makeSite({
    en: { 'pages/routing.md': makePage({ title: ROUTING.title, description: ROUTING.description }, en) },
    de: {
      'pages/routing.md': makePage({ title: 'Routing' }, 'Seiten liegen unter einer Sprache.\n'),
      ...(deRecord !== undefined && { 'translations.json': { routing: deRecord } }),
    },
    fr: fr ? { 'pages/routing.md': makePage({ title: 'Routage' }) } : {},
  });
  return Object.fromEntries(translationRows(site).map((row) => [row.locale, row.status]));
}

test('a translation whose record matches the source is up to date', async () => {
  assert.equal((await siteWith({ deRecord: fingerprint })).de, 'up-to-date');
});

test('a translation whose source changed since its record is outdated', async () => {
  assert.equal((await siteWith({ deRecord: fingerprint, en: 'Pages live under a locale. A new sentence.\n' })).de, 'outdated');
});

test('a translation without a record is unknown, never guessed; a page a locale lacks is missing', async () => {
  assert.deepEqual(await siteWith({ fr: false }), { de: 'unknown', fr: 'missing' });
});

test('re-wrapping the source is no change: the fingerprint ignores runs of white space', () => {
  assert.equal(sourceFingerprint({ ...ROUTING, body: 'Pages  live\nunder a locale.' }), fingerprint);
  assert.notEqual(sourceFingerprint({ ...ROUTING, body: 'Pages live under the locale.' }), fingerprint);
  assert.notEqual(sourceFingerprint({ ...ROUTING, title: 'Routes' }), fingerprint, 'the title is part of the source');
});

test('a typo fix marked as needing no translation keeps up-to-date records up to date, and outdated ones outdated', () => {
  const fixed = sourceFingerprint({ ...ROUTING, body: 'Pages live under a locale!' });
  assert.deepEqual(carryForward({ routing: fingerprint }, 'routing', fingerprint, fixed), { routing: fixed });
  assert.deepEqual(carryForward({ routing: 'older' }, 'routing', fingerprint, fixed), { routing: 'older' });
  assert.deepEqual(carryForward({}, 'routing', fingerprint, fixed), {}, 'no record stays unknown');
});

test('a record is written sorted by slug and read back; a malformed one is a clear error', () => {
  const dir = makeLocales({ de: {} });
  writeRecord(dir, 'de', { 'docs/z': 'b', about: 'a' });
  assert.deepEqual(Object.keys(readRecord(dir, 'de')), ['about', 'docs/z']);
  assert.deepEqual(readRecord(dir, 'fr'), {}, 'no file is no records');
  const bad = makeLocales({ de: { 'translations.json': { about: 1 } } });
  assert.throws(() => readRecord(bad, 'de'), /the record of "about" must be a string/);
  const broken = makeLocales({ de: { 'translations.json': '{"about": ' } });
  assert.throws(() => readRecord(broken, 'de'), /de\/translations\.json: not valid JSON/);
});
