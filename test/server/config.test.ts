import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { makeLocales } from '../helpers/content.ts';

test('defaults: port 3000, all interfaces, PUBLIC_URL from the port, en first', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.publicUrl, 'http://localhost:3000');
  assert.equal(config.locales[0], 'en');
  assert.deepEqual([...config.locales].sort(), ['ar', 'de', 'en', 'fr', 'ja']);
});

test('the default locale is configurable and listed first', () => {
  const config = loadConfig({ DEFAULT_LOCALE: 'de' });
  assert.equal(config.defaultLocale, 'de');
  assert.equal(config.locales[0], 'de');
});

test('locales are the folders under the locales directory', () => {
  const dir = makeLocales({ en: {}, 'pt-BR': {} });
  assert.deepEqual(loadConfig({ LOCALES_DIR: dir }).locales, ['en', 'pt-BR']);
});

for (const [env, variable] of [
  [{ PORT: 'eighty' }, 'PORT'],
  [{ PORT: '70000' }, 'PORT'],
  [{ DEFAULT_LOCALE: 'xx' }, 'DEFAULT_LOCALE'],
  [{ PUBLIC_URL: 'example.com' }, 'PUBLIC_URL'],
  [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
  [{ PUBLIC_URL: 'https://example.com/path' }, 'PUBLIC_URL'],
] as const) {
  test(`a bad ${variable} (${Object.values(env)[0]}) is refused with a message naming it`, () => {
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && error.message.startsWith(`${variable}: `),
    );
  });
}

test('PUBLIC_URL is reduced to its origin', () => {
  assert.equal(loadConfig({ PUBLIC_URL: 'https://Example.com/' }).publicUrl, 'https://example.com');
});
