import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { createIntlCache, type LocaleMessages, localeDigits, localeMessages, makeMessageIntl } from '../../src/i18n/intl.ts';

function bundle(locale: string, messages: Record<string, string>): LocaleMessages {
  const compiled = Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, parse(text)]));
  return localeMessages(locale, new Map([[locale, compiled]]), locale);
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

test('a count from 0 to 999 in a message is written without Intl.NumberFormat, as it would write it', () => {
  for (const locale of ['en', 'de', 'fr', 'ar', 'ja', 'fa', 'hi-IN-u-nu-deva']) {
    const messages = bundle(locale, { count: '{n, plural, one {# x} other {# xs}}', plain: '{n, number}' });
    assert.ok(messages.digits, `${locale} has digits`);
    const intl = makeMessageIntl(messages, createIntlCache(), () => {});
    const library = makeMessageIntl({ ...messages, digits: undefined }, createIntlCache(), () => {});
    let ours: string[] = [];
    const uses = numberFormatUses(() => {
      ours = [0, 1, 7, 10, 42, 999].flatMap((n) => [
        intl.formatMessage({ id: 'count' }, { n }),
        intl.formatMessage({ id: 'plain' }, { n }),
      ]);
    });
    const theirs = [0, 1, 7, 10, 42, 999].flatMap((n) => [
      library.formatMessage({ id: 'count' }, { n }),
      library.formatMessage({ id: 'plain' }, { n }),
    ]);
    assert.deepEqual(ours, theirs, locale);
    assert.equal(uses, 0, `${locale}: Intl.NumberFormat was used`);
  }
});

test("any other number is Intl.NumberFormat's: thousands, fractions, negatives and -0", () => {
  const messages = bundle('de', { plain: '{n, number}', percent: '{n, number, percent}' });
  const intl = makeMessageIntl(messages, createIntlCache(), () => {});
  const written = [1000, 1234567, 1.5, -1, -0].map((n) => intl.formatMessage({ id: 'plain' }, { n }));
  assert.deepEqual(written, ['1.000', '1.234.567', '1,5', '-1', '-0']);
  assert.equal(intl.formatMessage({ id: 'percent' }, { n: 0.5 }), new Intl.NumberFormat('de', { style: 'percent' }).format(0.5));
});

test("a locale whose digits the server cannot vouch for gets none, and every number is the library's", () => {
  assert.equal(localeDigits('not a locale!'), undefined);
  assert.deepEqual(localeDigits('en'), [...'0123456789']);
  assert.deepEqual(localeDigits('fa'), [...'۰۱۲۳۴۵۶۷۸۹']);
});
