import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../src/server/config.ts';

/**
 * Whoever clones the repository gets everything it refers to: no tracked file
 * may point at a sibling folder of the checkout or at a path on one machine.
 * docs/ may name such places when it credits a source; lock files list what npm resolved.
 */
const OUTSIDE = [
  { name: 'a sibling folder of the checkout', pattern: /\.\.\/shared\b/ },
  { name: 'an absolute path on one machine', pattern: /(?<![\w.~-])\/(?:work|home|root|Users|mnt|tmp)\/[\w.-]/ },
];
const EXEMPT = /^docs\/|(^|\/)package-lock\.json$|\.(png|svg|ico|woff2?)$/;

/** The files git tracks (CI always runs in a git checkout). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT_DIR, encoding: 'utf8' }).split('\0').filter(Boolean);
}

test('no tracked file outside docs/ points outside the repository', () => {
  const files = trackedFiles().filter((file) => !EXEMPT.test(file));
  assert.ok(files.length > 50, 'the file list is the repository’s');
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(join(ROOT_DIR, file), 'utf8').split('\n');
    for (const [index, line] of lines.entries()) {
      for (const { name, pattern } of OUTSIDE) {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${name}: ${line.trim().slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test('the check recognises what it looks for', () => {
  const hits = (line: string) => OUTSIDE.filter(({ pattern }) => pattern.test(line)).map(({ name }) => name);
  // Built from pieces, so that this file does not trip its own check.
  const up = '..';
  assert.deepEqual(hits(`see ${up}/shared/bench/compare.sh`), ['a sibling folder of the checkout']);
  assert.deepEqual(hits(`design: ${'/work'}/shared/relay-design.md`), ['an absolute path on one machine']);
  assert.deepEqual(hits(`cd ${'/tmp'}/x && npm test`), ['an absolute path on one machine']);
  assert.deepEqual(hits("join(tmpdir(), 'polysite-')"), []);
  assert.deepEqual(hits('https://example.test/home/page and /en/docs/guides'), []);
  assert.deepEqual(hits('node_modules/.bin/tsx ~/work/x'), []);
});
