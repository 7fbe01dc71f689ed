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
  [{ SENTRY_DSN: 'not a dsn' }, 'SENTRY_DSN'],
  [{ SENTRY_DSN: 'https://key@example.com/project' }, 'SENTRY_DSN'],
  [{ SENTRY_DSN: 'https://key@example.com/42', SENTRY_TRACES_SAMPLE_RATE: '2' }, 'SENTRY_TRACES_SAMPLE_RATE'],
  [{ MONITORING_PATH: 'monitoring' }, 'MONITORING_PATH'],
  [{ MONITORING_MAX_BYTES: '5MB' }, 'MONITORING_MAX_BYTES'],
  [{ EDIT_URL: 'javascript:alert(1)//{path}' }, 'EDIT_URL'],
  [{ EDIT_URL: 'github.com/org/repo/edit/main/{path}' }, 'EDIT_URL'],
  [{ EDIT_URL: 'https://github.com/org/repo/edit/main/' }, 'EDIT_URL'],
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

test('a SENTRY_DSN is checked at start-up, and its secret key is never kept', () => {
  const config = loadConfig({ SENTRY_DSN: 'https://publickey@sentry.example.com:8443/7' });
  assert.equal(config.sentry?.dsn, 'https://publickey@sentry.example.com:8443/7');
  assert.equal(config.sentry?.parsed.projectId, '7');
  assert.equal(config.monitoring.path, '/monitoring');
  assert.equal(config.monitoring.maxBytes, 5 * 1024 * 1024);
  assert.equal(config.sentry?.tracesSampleRate, 0.1);
  // Legacy DSNs carry a secret; the browser gets the public form, which is also what the SDK writes in envelopes.
  assert.equal(
    loadConfig({ SENTRY_DSN: 'https://publickey:s3cret@sentry.example.com/7' }).sentry?.dsn,
    'https://publickey@sentry.example.com/7',
  );
  assert.throws(
    () => loadConfig({ SENTRY_DSN: 'https://publickey:s3cret@/7' }),
    (error: Error) => error instanceof ConfigError && !error.message.includes('s3cret'),
  );
});
