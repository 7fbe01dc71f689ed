import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/server/config.ts';
import { checkMessages, loadMessages, readSameAsDefault } from '../../../src/server/content/messages.ts';
import { makeLocales, messagesText, shown } from '../../helpers/content.ts';

/** The default locale's messages in these tests: a plain argument, a plural, a select and a tag. */
const EN = {
  'docs.next': 'Next: {title}',
  'blog.postCount': '{count, plural, =0 {No posts yet} one {# post} other {# posts}}',
  greeting: '{gender, select, female {She wrote} male {He wrote} other {They wrote}}',
  'page.link': 'Read <b>{title}</b>',
};

/** The problems of `es` (second line onwards: its messages, in EN's order) against EN, with its file as printed. */
function problemsOf(es: Record<string, string>, { locale = 'es', en = EN } = {}) {
  const dir = makeLocales({ en: { 'messages.json': messagesText(en) }, [locale]: { 'messages.json': messagesText(es) } });
  const { problems, keys } = checkMessages(dir, ['en', locale], 'en');
  return { problems: [...problems, ...keys], file: shown(dir, `${locale}/messages.json`) };
}

test('every shipped locale passes every message check: keys, arguments, plural categories, tags', () => {
  const config = loadConfig({ PORT: '0' });
  const { problems, keys } = checkMessages(config.localesDir, config.locales, config.defaultLocale);
  assert.deepEqual([...problems, ...keys], []);
});

test('a renamed placeholder is an error at its line and column, naming the key and the default’s argument', () => {
  const { problems, file } = problemsOf({ ...EN, 'docs.next': 'Siguiente: {titulo}' });
  assert.deepEqual(problems, [`${file}:2:28: message "docs.next": \`{titulo}\`: the en message has \`{title}\``]);
});

test('an argument of another kind is an error', () => {
  const { problems, file } = problemsOf({ ...EN, 'blog.postCount': '{count, number} entradas' });
  assert.deepEqual(problems, [`${file}:3:22: message "blog.postCount": \`{count, number}\`: the en message has \`{count, plural}\``]);
});

test('a dropped argument is an error at the message', () => {
  const { problems, file } = problemsOf({ ...EN, 'docs.next': 'Siguiente' });
  assert.deepEqual(problems, [`${file}:2:17: message "docs.next": \`{title}\` missing: the en message has it`]);
});

test('a plural option the locale’s plural rules do not know is an error; Arabic may use all six categories', () => {
  const ja = problemsOf({ ...EN, 'blog.postCount': '{count, plural, one {1 件} other {# 件}}' }, { locale: 'ja' });
  assert.deepEqual(ja.problems, [
    `${ja.file}:3:38: message "blog.postCount": \`{count, plural}\` has the option \`one\`, which is not a cardinal plural category of ja (it has \`other\`); write \`=1\` for exactly that number`,
  ]);
  const ar = problemsOf(
    { ...EN, 'blog.postCount': '{count, plural, =0 {لا} zero {٠} one {واحدة} two {اثنتان} few {# قليلة} many {# كثيرة} other {# تدوينة}}' },
    { locale: 'ar' },
  );
  assert.deepEqual(ar.problems, []);
});

test('a select option the default message does not have is an error', () => {
  const { problems, file } = problemsOf({ ...EN, greeting: '{gender, select, mujer {Ella} other {Elle}}' });
  assert.deepEqual(problems, [
    `${file}:4:33: message "greeting": \`{gender, select}\` has the option \`mujer\`, which the en message does not have (it has \`female\`, \`male\` and \`other\`)`,
  ]);
});

test('a tag the default message does not use is an error', () => {
  const { problems, file } = problemsOf({ ...EN, 'page.link': 'Lee <i>{title}</i>' });
  assert.deepEqual(problems, [`${file}:5:21: message "page.link": \`<i>\`: the en message has only \`<b>\``]);
});

test('an ICU syntax error names the line and column of messages.json and says what is wrong in words', () => {
  const { problems, file } = problemsOf({ ...EN, 'docs.next': 'Siguiente: {title' });
  assert.deepEqual(problems, [
    `${file}:2:28: message "docs.next" does not parse: an argument is not closed: a "}" is missing (EXPECT_ARGUMENT_CLOSING_BRACE)`,
  ]);
});

test('the column counts a JSON escape as it is written, not as the character it stands for', () => {
  // "\"Hola\" {titulo}": the quotes are written \" (two characters each).
  const { problems, file } = problemsOf({ ...EN, 'docs.next': '"Hola" {titulo}' });
  assert.deepEqual(problems, [`${file}:2:26: message "docs.next": \`{titulo}\`: the en message has \`{title}\``]);
});

test('a plural without other does not parse, at the end of its options', () => {
  const dir = makeLocales({ en: { 'messages.json': messagesText({ n: '{count, plural, one {# thing}}' }) } });
  assert.throws(
    () => loadMessages(dir, ['en'], 'en'),
    new RegExp(`${shown(dir, 'en/messages.json')}:2:38: message "n" does not parse: a plural or select needs an "other" option`),
  );
});

test('a missing key, an extra key, a key written twice and a value that is not text are reported with their lines', () => {
  const dir = makeLocales({
    en: { 'messages.json': messagesText({ a: 'A', b: 'B' }) },
    de: { 'messages.json': '{\n  "a": "A",\n  "c": "C",\n  "a": "A2",\n  "d": 4\n}\n' },
  });
  const de = shown(dir, 'de/messages.json');
  const { problems, keys } = checkMessages(dir, ['en', 'de'], 'en');
  assert.deepEqual(problems, [
    `${de}:4:3: message "a" is written twice (first on line 2); keep one`,
    `${de}:5:3: message "d" must be a string (an ICU message), not a number`,
  ]);
  assert.deepEqual(keys, [`${de}:3:3: message "c" is not in the en file`, `${de}: missing message "b" (the en file has it, line 3)`]);
});

test('a messages.json that is not JSON is reported at its line and column', () => {
  const dir = makeLocales({ en: { 'messages.json': '{\n  "a": "A"\n  "b": "B"\n}\n' } });
  assert.deepEqual(checkMessages(dir, ['en'], 'en').problems, [
    `${shown(dir, 'en/messages.json')}:3:3: not valid JSON: Unexpected token String found.`,
  ]);
});

test('the "$meta" notes of a messages file are not a message, and list the values rightly the same as the default', () => {
  const dir = makeLocales({
    en: { 'messages.json': { a: 'Blog' } },
    de: { 'messages.json': { $meta: { sameAsDefault: ['a'] }, a: 'Blog' } },
  });
  assert.deepEqual(Object.keys(loadMessages(dir, ['en', 'de'], 'en').get('de')!), ['a']);
  assert.deepEqual(checkMessages(dir, ['en', 'de'], 'en').problems, []);
  assert.deepEqual(readSameAsDefault(dir, 'de'), ['a']);
  assert.deepEqual(readSameAsDefault(dir, 'en'), []);
});

test('the catalog holds no parser locations (it goes to every browser) and falls back to the default for a missing key', () => {
  const dir = makeLocales({ en: { 'messages.json': { a: 'A {x}', b: 'B' } }, de: { 'messages.json': { a: 'Ä {x}' } } });
  const { catalog } = checkMessages(dir, ['en', 'de'], 'en');
  assert.deepEqual(catalog.get('de'), {
    a: [
      { type: 0, value: 'Ä ' },
      { type: 1, value: 'x' },
    ],
    b: [{ type: 0, value: 'B' }],
  });
});
