import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/server/config.ts';
import { findMessageProblems, loadMessages } from '../../../src/server/content/messages.ts';
import { makeLocales } from '../../helpers/content.ts';

test('every shipped locale has every message key of the default locale, and nothing extra', () => {
  const config = loadConfig({ PORT: '0' });
  assert.deepEqual(findMessageProblems(config.localesDir, config.locales, config.defaultLocale), []);
});

test('every shipped message parses as ICU MessageFormat', () => {
  const config = loadConfig({ PORT: '0' });
  assert.doesNotThrow(() => loadMessages(config.localesDir, config.locales, config.defaultLocale));
});

test('a missing key is reported with the file and the key', () => {
  const dir = makeLocales({ en: { 'messages.json': { a: 'A', b: 'B' } }, de: { 'messages.json': { a: 'A' } } });
  const problems = findMessageProblems(dir, ['en', 'de'], 'en');
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /de\/messages\.json: missing message "b"/);
});

test('a message that does not parse stops loading with the file and the key', () => {
  const dir = makeLocales({ en: { 'messages.json': { broken: '{count, plural, one {x}' } } });
  assert.throws(() => loadMessages(dir, ['en'], 'en'), /en\/messages\.json: message "broken" does not parse/);
});

test('a plural without an other branch does not parse', () => {
  const dir = makeLocales({ en: { 'messages.json': { n: '{count, plural, one {# thing}}' } } });
  assert.throws(() => loadMessages(dir, ['en'], 'en'), /message "n" does not parse/);
});

test('the "$meta" notes of a messages file are not a message, and list the values rightly the same as the default', async () => {
  const { readSameAsDefault } = await import('../../../src/server/content/messages.ts');
  const dir = makeLocales({
    en: { 'messages.json': { a: 'Blog' } },
    de: { 'messages.json': { $meta: { sameAsDefault: ['a'] }, a: 'Blog' } },
  });
  assert.deepEqual(Object.keys(loadMessages(dir, ['en', 'de'], 'en').get('de')!), ['a']);
  assert.deepEqual(findMessageProblems(dir, ['en', 'de'], 'en'), []);
  assert.deepEqual(readSameAsDefault(dir, 'de'), ['a']);
  assert.deepEqual(readSameAsDefault(dir, 'en'), []);
});
