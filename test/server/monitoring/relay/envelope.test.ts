import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HEADER_BYTES, readEnvelopeDsn } from '../../../../src/server/monitoring/relay/envelope.ts';

const DSN = 'https://abc123@o1.ingest.sentry.io/42';
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('readEnvelopeDsn', () => {
  for (const [name, body] of [
    ['an envelope with items', bytes(`{"dsn":"${DSN}","sent_at":"2026-01-01T00:00:00Z"}\n{"type":"event"}\n{}\n`)],
    ['a header-only envelope', bytes(`{"dsn":"${DSN}"}`)],
    ['a header-only envelope ending in a newline', bytes(`{"dsn":"${DSN}"}\n`)],
    ['a header followed by binary bytes that are not UTF-8', bytes(`{"dsn":"${DSN}"}\n`, [0xff, 0x00, 0x0a, 0xfe])],
    ['a header whose nested objects repeat dsn', bytes(`{"dsn":"${DSN}","sdk":{"dsn":"x","dsn":"y"},"dsns":["dsn","dsn"]}\n`)],
    ['a header with a value that reads like a key', bytes(`{"note":"dsn","dsn":"${DSN}","x":" \\"dsn\\": "}\n`)],
    ['a header line of exactly 16 KiB', bytes(`{"dsn":"${DSN}","pad":"${'x'.repeat(MAX_HEADER_BYTES - DSN.length - 19)}"}\n`)],
  ] as const) {
    test(`should read the dsn of ${name}`, () => {
      assert.deepEqual(readEnvelopeDsn(body), { kind: 'dsn', dsn: DSN });
    });
  }

  for (const [name, body, reason] of [
    ['an empty body', bytes(''), 'missing envelope header'],
    ['a body starting with a newline', bytes(`\n{"dsn":"${DSN}"}`), 'missing envelope header'],
    ['a header that is not JSON', bytes('{dsn}\n'), 'invalid envelope header'],
    ['a header that is JSON null', bytes('null\n'), 'invalid envelope header'],
    ['a header that is a JSON array', bytes(`["${DSN}"]\n`), 'invalid envelope header'],
    ['a header with invalid UTF-8', bytes('{"dsn":"', [0xc3, 0x28], '"}\n'), 'invalid envelope header'],
    ['a header without dsn', bytes('{"sent_at":"2026-01-01T00:00:00Z"}\n'), 'missing dsn'],
    ['a header with a numeric dsn', bytes('{"dsn":42}\n'), 'missing dsn'],
    ['a header that repeats dsn', bytes(`{"dsn":"${DSN}","dsn":"https://other@o1.ingest.sentry.io/42"}\n`), 'repeated dsn'],
    [
      'a header that repeats dsn, escaped',
      bytes(`{"ds\\u006e":"https://other@o1.ingest.sentry.io/42", "dsn" \t : "${DSN}"}\n`),
      'repeated dsn',
    ],
    ['a header that repeats dsn after much whitespace', bytes(`{"dsn"${' '.repeat(200)}:"x","dsn":"${DSN}"}\n`), 'repeated dsn'],
    [
      'a header line one byte over 16 KiB',
      bytes(`{"dsn":"${DSN}","pad":"${'x'.repeat(MAX_HEADER_BYTES - DSN.length - 18)}"}\n`),
      'envelope header too long',
    ],
    ['a long body without any newline', bytes(`{"dsn":"${DSN}","pad":"${'x'.repeat(MAX_HEADER_BYTES)}"}`), 'envelope header too long'],
  ] as const) {
    test(`should refuse ${name}: ${reason}`, () => {
      assert.deepEqual(readEnvelopeDsn(body), { kind: 'malformed', reason });
    });
  }
});
