import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createIntlCache, localeMessages, type MessageFailure, makeIntl, makeMessageIntl } from '../../../src/i18n/intl.ts';
import { ROOT_DIR } from '../../../src/server/config.ts';
import { checkMessages, loadMessages } from '../../../src/server/content/messages.ts';
import { makeServerIntls } from '../../../src/server/site/server-intl.ts';
import { makeLocales, MESSAGES } from '../../helpers/content.ts';
import { argumentValues } from '../../helpers/message-values.ts';

const LOCALES = ['en', 'ar', 'de', 'fr', 'ja'];

function logged() {
  const lines: { message: string; fields?: Record<string, unknown> }[] = [];
  return { lines, warn: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields }) };
}

test("every key of every locale formats to text with the default locale's argument values, nothing reported", () => {
  const catalog = loadMessages(join(ROOT_DIR, 'locales'), LOCALES, 'en');
  const log = logged();
  const intls = makeServerIntls(catalog, 'en', log);
  const defaults = catalog.get('en')!;
  for (const locale of LOCALES) {
    for (const id of Object.keys(defaults)) {
      const values = argumentValues(defaults[id]!);
      const text = intls.get(locale)!.formatMessage({ id }, values);
      assert.equal(typeof text, 'string', `${locale} ${id}`);
      assert.notEqual(text, id, `${locale} ${id} shows a message, not its key`);
    }
  }
  assert.deepEqual(log.lines, []);
});

test("the browser's IntlShape, made from the message asset as it travels (JSON), formats every message as the server's", () => {
  // The same renamed placeholder on both sides: the browser's fallback must read as the server's.
  const catalog = loadMessages(join(ROOT_DIR, 'locales'), LOCALES, 'en');
  catalog.get('de')!['docs.next'] = loadMessages(
    makeLocales({ en: { 'messages.json': { ...MESSAGES, x: 'Weiter: {titel}' } } }),
    ['en'],
    'en',
  ).get('en')!.x!;
  const server = makeServerIntls(catalog, 'en', logged());
  const defaults = catalog.get('en')!;
  const cache = createIntlCache();
  const failures: string[] = [];
  for (const locale of LOCALES) {
    const travelled = JSON.parse(JSON.stringify(localeMessages(locale, catalog, 'en')));
    const browser = makeMessageIntl(travelled, cache, ({ locale, id }) => failures.push(`${locale} ${id}`));
    for (const id of Object.keys(defaults)) {
      const values = argumentValues(defaults[id]!);
      assert.equal(browser.formatMessage({ id }, values), server.get(locale)!.formatMessage({ id }, values), `${locale} ${id}`);
    }
  }
  assert.deepEqual(failures, ['de docs.next']);
});

test("a renamed placeholder shows the default locale's message, reported once per locale and key", () => {
  const dir = makeLocales({
    en: { 'messages.json': { ...MESSAGES, 'docs.next': 'Next: {title}' } },
    es: { 'messages.json': { ...MESSAGES, 'docs.next': 'Siguiente: {titulo}' } },
  });
  // The build refuses this file (content/messages.ts); here the check is passed by, as if a
  // translator's mistake had reached the server anyway, to see what readers would get.
  const { catalog, problems } = checkMessages(dir, ['en', 'es'], 'en');
  assert.match(problems.join('\n'), /`\{titulo\}`: the en message has `\{title\}`/);
  const log = logged();
  const es = makeServerIntls(catalog, 'en', log).get('es')!;
  assert.equal(es.formatMessage({ id: 'docs.next' }, { title: 'Routing' }), 'Next: Routing');
  assert.equal(es.formatMessage({ id: 'docs.next' }, { title: 'Install' }), 'Next: Install');
  assert.equal(log.lines.length, 1, 'one line for two failures of one key');
  assert.match(log.lines[0]!.message, /message "docs\.next" of locale "es" did not format/);
  assert.deepEqual({ locale: log.lines[0]!.fields!.locale, key: log.lines[0]!.fields!.key }, { locale: 'es', key: 'docs.next' });
  assert.match(String(log.lines[0]!.fields!.cause), /titulo/);
});

test('a message that fails in the default locale too shows its key; an unknown key shows itself', () => {
  const dir = makeLocales({ en: { 'messages.json': { ...MESSAGES, 'docs.next': 'Next: {title}' } } });
  const failures: MessageFailure[] = [];
  const en = makeIntl(localeMessages('en', loadMessages(dir, ['en'], 'en'), 'en'), createIntlCache(), (failure) => failures.push(failure));
  assert.equal(en.formatMessage({ id: 'docs.next' }), 'docs.next');
  assert.equal(en.formatMessage({ id: 'no.such.message' }), 'no.such.message');
  assert.deepEqual(
    failures.map(({ locale, id }) => `${locale} ${id}`),
    ['en docs.next', 'en no.such.message'],
  );
});

test('dates, lists and language names come from the same IntlShape, in its locale', () => {
  const catalog = loadMessages(join(ROOT_DIR, 'locales'), LOCALES, 'en');
  const de = makeServerIntls(catalog, 'en', logged()).get('de')!;
  assert.equal(de.formatDate(new Date(Date.UTC(2024, 4, 17)), { dateStyle: 'long', timeZone: 'UTC' }), '17. Mai 2024');
  assert.equal(de.formatList(['a', 'b', 'c']), 'a, b und c');
  assert.equal(de.formatDisplayName('fr', { type: 'language' }), 'Französisch');
});
