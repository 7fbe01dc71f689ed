import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { makeIntl, type MessageValues } from '../../../src/i18n/intl.ts';
import { ROOT_DIR } from '../../../src/server/config.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { makeServerIntl } from '../../../src/server/site/server-intl.ts';

const LOCALES = ['en', 'ar', 'de', 'fr', 'ja'];

/** A value for every argument a message names: a number where it counts or selects on one, text elsewhere. */
function valuesFor(elements: MessageFormatElement[], values: MessageValues = {}): MessageValues {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.number) values[element.value] = 3;
    else if (element.type === TYPE.select) values[element.value] = 'other';
    else if (element.type === TYPE.argument) values[element.value] ??= 'Ünïcödé <b>';
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) valuesFor(option.value, values);
    if (element.type === TYPE.tag) valuesFor(element.children, values);
  }
  return values;
}

test('the server formats every message of every locale as the browser does, labels and messages with values', () => {
  const catalog = loadMessages(join(ROOT_DIR, 'locales'), LOCALES, 'en');
  for (const locale of LOCALES) {
    const messages = catalog.get(locale)!;
    const server = makeServerIntl(locale, messages);
    const browser = makeIntl(locale, messages);
    for (const [id, elements] of Object.entries(messages)) {
      const values = valuesFor(elements);
      const given = Object.keys(values).length ? values : undefined;
      const expected = browser.formatMessage({ id }, given);
      assert.equal(server.formatMessage({ id }, given), expected, `${locale} ${id}`);
      // Kept labels come back the same the second time.
      assert.equal(server.formatMessage({ id }, given), expected, `${locale} ${id}, again`);
    }
  }
});

test('a message the catalog lacks, or one missing a value it needs, shows its key instead of failing the render', () => {
  const catalog = loadMessages(join(ROOT_DIR, 'locales'), LOCALES, 'en');
  const server = makeServerIntl('en', catalog.get('en')!);
  assert.equal(server.formatMessage({ id: 'no.such.message' }), 'no.such.message');
  const needsValue = Object.entries(catalog.get('en')!).find(([, elements]) => Object.keys(valuesFor(elements)).length)![0];
  assert.equal(server.formatMessage({ id: needsValue }), needsValue);
  assert.throws(() => makeIntl('en', catalog.get('en')!).formatMessage({ id: needsValue }), 'the browser formatter alone throws');
});
