import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../src/server/config.ts';
import { MEMORY_BOUNDS } from '../../src/server/memory-bounds.ts';

// docs/architecture.md lists every cache with its bound, as `name` and a figure
// (`renderedBytes` 16 MiB): each must be the code's, and each bound must be listed.

const UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 * 1024, 'Mi characters': 1024 * 1024 };

test('docs/architecture.md gives every memory bound with the figure the code uses', () => {
  const doc = readFileSync(join(ROOT_DIR, 'docs', 'architecture.md'), 'utf8');
  for (const [name, value] of Object.entries(MEMORY_BOUNDS)) {
    const match = doc.match(new RegExp(`\`${name}\` (\\d+) (KiB|MiB|Mi characters)`));
    assert.ok(match, `${name} is listed with its figure`);
    assert.equal(Number(match[1]) * UNITS[match[2]!]!, value, name);
  }
});
