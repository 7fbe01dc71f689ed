import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateLocale } from '../../src/i18n/negotiate.ts';

const locales = ['en', 'de', 'fr', 'ja', 'ar'];
const cases: [cookie: string | undefined, header: string | undefined, expected: string][] = [
  [undefined, undefined, 'en'],
  [undefined, 'de-CH,de;q=0.9', 'de'],
  [undefined, 'de-CH', 'de'],
  [undefined, 'pt-BR', 'en'],
  [undefined, 'pt-BR,fr;q=0.5', 'fr'],
  [undefined, 'fr;q=0.2, ja;q=0.8', 'ja'],
  [undefined, 'ar-EG,en;q=0.1', 'ar'],
  [undefined, '*', 'en'],
  [undefined, 'xx;q=bogus,,;', 'en'],
  ['ja', 'de', 'ja'],
  ['JA', 'de', 'ja'],
  ['xx', 'de', 'de'],
];

for (const [cookie, header, expected] of cases) {
  test(`cookie ${cookie ?? '-'} and Accept-Language ${header ?? '-'} give ${expected}`, () => {
    assert.equal(negotiateLocale({ cookie, acceptLanguage: header }, locales, 'en'), expected);
  });
}
