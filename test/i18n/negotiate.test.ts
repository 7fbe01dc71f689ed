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
  // The best q of any range naming a locale counts, not the most specific match.
  [undefined, 'de-CH,fr;q=0.9,de;q=0.8', 'de'],
  [undefined, 'en-US,en;q=0.9,de;q=0.95', 'en'],
  [undefined, 'fr-CA;q=0.4,ja;q=0.5', 'ja'],
  // Equal q: the range listed first wins; q=0 refuses.
  [undefined, 'ja,fr', 'ja'],
  [undefined, 'fr;q=0.5,ja;q=0.5', 'fr'],
  [undefined, 'de-AT,de;q=0', 'en'],
  [undefined, 'DE-de', 'de'],
  [undefined, 'de;q=2,fr;q=0.1', 'fr'],
  ['ja', 'de', 'ja'],
  ['JA', 'de', 'ja'],
  ['xx', 'de', 'de'],
];

for (const [cookie, header, expected] of cases) {
  test(`cookie ${cookie ?? '-'} and Accept-Language ${header ?? '-'} give ${expected}`, () => {
    assert.equal(negotiateLocale({ cookie, acceptLanguage: header }, locales, 'en'), expected);
  });
}
