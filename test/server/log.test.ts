import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogLevel } from '../../src/server/config.ts';
import { createLogger } from '../../src/server/log.ts';

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
