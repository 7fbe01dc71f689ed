import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localeKeys } from '../../scripts/locale-cache.ts';
import { makeLocales, makePage } from '../helpers/content.ts';

// A translation reads the default locale's page only for its front matter (its title in the
// sidebar, its date): a change of that page's body must leave the translation's key alone,
// and a change of its front matter must not. The key reads a page's first bytes only, and
// decodes them only up to the front matter's end.

/** A two-locale site where German translates `a.md`; `source` is the English page's text. */
function site(source: string) {
  const localesDir = makeLocales({
    en: { 'pages/index.md': makePage({ title: 'Home' }), 'pages/a.md': source },
    de: { 'pages/index.md': makePage({ title: 'Start' }), 'pages/a.md': makePage({ title: 'A, übersetzt' }) },
  });
  const keysOf = () => {
    const { keys } = localeKeys(mkdtempSync(join(tmpdir(), 'polysite-heads-')), localesDir, ['en', 'de'], 'en', 'code', new Map());
    return { en: keys.get('en')!, de: keys.get('de')! };
  };
  return { keysOf, write: (text: string) => writeFileSync(join(localesDir, 'en/pages/a.md'), text) };
}

const LONG_BODY = `${'Ein langer Absatz über Äpfel und Bäume. '.repeat(200)}\n`;

for (const [name, lineEnd] of [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
] as const) {
  for (const [size, body] of [
    ['a short body', 'Some text.\n'],
    ['a body longer than the bytes read', LONG_BODY],
  ] as const) {
    test(`${name} lines, ${size}: a change of the source's body changes its own locale's key, not the translation's; a change of its front matter changes both`, () => {
      const text = (title: string, text: string) => makePage({ title }, text).replaceAll('\n', lineEnd);
      const { keysOf, write } = site(text('A', body));
      const before = keysOf();
      write(text('A', `${body}One more sentence.\n`));
      const bodyChanged = keysOf();
      assert.notEqual(bodyChanged.en, before.en, 'English reads the whole page');
      assert.equal(bodyChanged.de, before.de, 'German reads only its front matter');
      write(text('A, renamed', `${body}One more sentence.\n`));
      const frontChanged = keysOf();
      assert.notEqual(frontChanged.de, bodyChanged.de, 'a new title is a new German key');
    });
  }
}
