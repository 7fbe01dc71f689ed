import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dsnToString as sdkDsnToString, makeDsn } from '@sentry/core';
import { dsnToString, ingestUrl, parseDsn } from '../../../../src/server/monitoring/relay/dsn.ts';

/** Our reading of a DSN must give the very string the browser SDK puts in each envelope. */
describe('parseDsn + dsnToString', () => {
  for (const [raw, expected] of [
    ['https://abc123@o1.ingest.sentry.io/42', 'https://abc123@o1.ingest.sentry.io/42'],
    ['https://abc123@o1.ingest.us.sentry.io/4508000000000001', 'https://abc123@o1.ingest.us.sentry.io/4508000000000001'],
    ['http://abc123@127.0.0.1:9000/7', 'http://abc123@127.0.0.1:9000/7'],
    ['http://abc123:secret@sentry.internal/7', 'http://abc123@sentry.internal/7'],
    ['https://abc123@example.com/sentry/tools/3', 'https://abc123@example.com/sentry/tools/3'],
    ['http://abc123@[::1]:9000/5', 'http://abc123@[::1]:9000/5'],
    ['https://abc123@example.com/42?query=ignored', 'https://abc123@example.com/42'],
  ] as const) {
    test(`should read ${raw} as the SDK does`, () => {
      const ours = dsnToString(parseDsn(raw));
      assert.equal(ours, expected);
      assert.equal(ours, sdkDsnToString(makeDsn(raw)!), 'same string as @sentry/core');
    });
  }

  test('should keep the parts apart', () => {
    assert.deepEqual(parseDsn('https://abc123:pw@example.com:8443/a/b/42'), {
      protocol: 'https',
      publicKey: 'abc123',
      host: 'example.com',
      port: '8443',
      projectId: '42',
      path: 'a/b',
    });
  });

  for (const [raw, message] of [
    ['', /: not a Sentry DSN/],
    ['not a dsn', /: not a Sentry DSN/],
    ['https://example.com/42', /: not a Sentry DSN/],
    ['ftp://abc123@example.com/42', /scheme "ftp" is not http or https/],
    ['https://abc123@example.com/project', /project id "project" is not a number/],
    ['https://abc123@example.com/42/', /project id "" is not a number/],
    ['https://abc-123@example.com/42', /: not a Sentry DSN/],
  ] as const) {
    test(`should refuse ${JSON.stringify(raw)} with a clear message`, () => {
      assert.throws(
        () => parseDsn(raw),
        (error: Error) => {
          assert.match(error.message, /^SENTRY_DSN: /);
          assert.match(error.message, message);
          assert.ok(!error.stack?.includes(' at '), 'no stack to wade through');
          return true;
        },
      );
    });
  }
});

describe('ingestUrl', () => {
  for (const [raw, url] of [
    ['https://abc123@o1.ingest.sentry.io/42', 'https://o1.ingest.sentry.io/api/42/envelope/?sentry_version=7&sentry_key=abc123'],
    ['http://abc123:secret@127.0.0.1:9000/7', 'http://127.0.0.1:9000/api/7/envelope/?sentry_version=7&sentry_key=abc123'],
    ['https://abc123@example.com/sentry/3', 'https://example.com/sentry/api/3/envelope/?sentry_version=7&sentry_key=abc123'],
  ] as const) {
    test(`should send envelopes for ${raw} to ${url}`, () => {
      assert.equal(ingestUrl(parseDsn(raw)), url);
    });
  }
});
