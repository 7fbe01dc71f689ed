import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogLevel } from '../../../src/server/config.ts';
import { batchedStdout, createLogger } from '../../../src/server/http/log.ts';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

function loggerAt(level: LogLevel) {
  const lines: string[] = [];
  return { log: createLogger((line) => lines.push(line), level), lines };
}

for (const level of ['debug', 'info', 'warn', 'error', 'silent'] as const) {
  test(`at ${level}, a level is enabled exactly when its lines are written`, () => {
    const { log, lines } = loggerAt(level);
    for (const name of LEVELS) {
      const before = lines.length;
      log[name]('message', { n: 1 });
      assert.equal(log.enabled(name), lines.length > before, name);
    }
    const written = lines.map((line) => JSON.parse(line).level);
    assert.deepEqual(written, LEVELS.slice(level === 'silent' ? LEVELS.length : LEVELS.indexOf(level)));
  });
}

test('a line is one JSON object on one line: time, level and message first, then the fields, an Error with its stack', () => {
  const { log, lines } = loggerAt('debug');
  const error = new TypeError('bad "thing"\nhere');
  log.error('render failed:\n"quoted"', { path: '/de/x"y', status: 500, error });
  log.info('plain');
  assert.equal(lines.length, 2);
  for (const line of lines) assert.match(line, /^\{[^\n]*\}\n$/);
  const entry = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(entry), ['time', 'level', 'msg', 'path', 'status', 'error']);
  assert.ok(!Number.isNaN(Date.parse(entry.time)));
  assert.equal(entry.level, 'error');
  assert.equal(entry.msg, 'render failed:\n"quoted"');
  assert.equal(entry.path, '/de/x"y');
  assert.deepEqual(entry.error, { name: 'TypeError', message: 'bad "thing"\nhere', stack: error.stack });
  assert.deepEqual(Object.keys(JSON.parse(lines[1]!)), ['time', 'level', 'msg']);
});

test('batched output writes nothing until a batch is due, then every line once, in order, and never over 4 KB with another line', async () => {
  const written: string[] = [];
  const write = batchedStdout((text) => written.push(text));
  write('a\n');
  write('b\n');
  assert.deepEqual(written, [], 'a few short lines wait');
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(written, ['a\nb\n'], 'out within the batch delay, in one write');

  written.length = 0;
  // Lines of 1,000 bytes (333 three-byte characters and a newline is 1,000 bytes): four fit in 4 KB, a fifth does not.
  const line = `${'概'.repeat(333)}\n`;
  for (let i = 0; i < 9; i++) write(line);
  assert.deepEqual(written, [line.repeat(4), line.repeat(4)], 'full batches go out at once, each within 4 KB');
  const long = `${'x'.repeat(5000)}\n`;
  write(long);
  assert.deepEqual(written.slice(2), [line], 'the pending line goes out before a line that would not fit');
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(written.slice(3), [long], 'a line over 4 KB goes alone');
  for (const text of written) assert.ok(Buffer.byteLength(text) <= 4096 || text === long);
});

test('a line whose fields are already JSON text is written as one object, and only at its level', () => {
  const { log, lines } = loggerAt('info');
  log.json('info', 'request', '{"path":"/de/x\\"y","status":200}');
  log.json('info', 'bare', '{}');
  log.json('debug', 'hidden', '{"n":1}');
  assert.equal(lines.length, 2);
  const [entry, bare] = lines.map((line) => JSON.parse(line));
  assert.deepEqual(Object.keys(entry), ['time', 'level', 'msg', 'path', 'status']);
  assert.equal(entry.path, '/de/x"y');
  assert.deepEqual(Object.keys(bare), ['time', 'level', 'msg']);
});
