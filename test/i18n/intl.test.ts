import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { createIntlCache, type LocaleMessages, makeMessageIntl } from '../../src/i18n/intl.ts';

function bundle(locale: string, messages: Record<string, string>): LocaleMessages {
  const compiled = Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, parse(text)]));
  return { locale, messages: compiled, defaultLocale: locale, defaults: {} };
}

/** Counts uses of Intl.NumberFormat (constructor and supportedLocalesOf) while `run` runs. */
function numberFormatUses(run: () => void): number {
  const original = Intl.NumberFormat;
  let uses = 0;
  const counting = function (this: unknown, ...args: ConstructorParameters<typeof Intl.NumberFormat>) {
    uses++;
    return new original(...args);
  } as unknown as typeof Intl.NumberFormat;
  counting.supportedLocalesOf = (...args: Parameters<typeof original.supportedLocalesOf>) => {
    uses++;
    return original.supportedLocalesOf(...args);
  };
  Intl.NumberFormat = counting;
  try {
    run();
  } finally {
    Intl.NumberFormat = original;
  }
  return uses;
}

test('messages that format no number never touch Intl.NumberFormat, whose first use loads its locale data', () => {
  const messages = bundle('de', { greeting: 'Hallo {name}!', kind: '{kind, select, docs {Doku} other {Seite}}', plain: 'Suche' });
  let formatted: string[] = [];
  const uses = numberFormatUses(() => {
    const intl = makeMessageIntl(messages, createIntlCache(), () => {});
    formatted = [intl.formatMessage({ id: 'greeting' }, { name: 'Ada' }), intl.formatMessage({ id: 'kind' }, { kind: 'docs' })];
  });
  assert.deepEqual(formatted, ['Hallo Ada!', 'Doku']);
  assert.equal(uses, 0);
});

test('a message that formats a number still formats it in its locale', () => {
  const intl = makeMessageIntl(bundle('de', { count: '{n, plural, one {# Seite} other {# Seiten}}' }), createIntlCache(), () => {});
  assert.equal(intl.formatMessage({ id: 'count' }, { n: 1234 }), '1.234 Seiten');
});

test('a formatter resolves its locale to the canonical tag, as Intl.NumberFormat.supportedLocalesOf would', () => {
  const formatter = new IntlMessageFormat(parse('x'), 'en-us');
  assert.equal(formatter.resolvedOptions().locale, Intl.NumberFormat.supportedLocalesOf('en-us')[0]);
  assert.equal(formatter.resolvedOptions().locale, 'en-US');
});
