import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairedSummary, peerTable, type Measured, type Outcome } from '../../scripts/bench/peer-table.ts';

function measured(name: string, label: string, perCpuSecond: number, overrides: Partial<Measured> = {}): Outcome {
  return {
    name,
    label,
    perCpuSecond,
    requestsPerSecond: perCpuSecond,
    serverCpuPercent: 100,
    p50: 3,
    p99: 9.6,
    peakRssMb: 95.5,
    coldStartMs: 387,
    firstLoadJsKb: 74.44,
    htmlKb: 17.2,
    non2xx: 0,
    errors: 0,
    othersCpuPercent: [2.4, 0.6],
    ...overrides,
  };
}

const table = peerTable(
  [
    measured('next-dynamic', 'Next.js 16, dynamic', 100),
    measured('next-prerendered', 'Next.js 16, prerendered', 1000),
    measured('buffer', 'one precomputed buffer', 20000, { firstLoadJsKb: undefined }),
    { name: 'bare-stream', label: 'bare `renderToPipeableStream`', failed: 'no 200 within 60000 ms' },
    measured('polysite', '**polysite** (render cache on)', 8000),
    measured('polysite-nocache', '**polysite**, `RENDER_CACHE=off`', 1500),
  ],
  { heading: 'heading' },
);

test("polysite's rows quote their multiple of the peer the README compares them with", () => {
  assert.match(
    table,
    /^\| \*\*polysite\*\* \(render cache on\) \| \*\*8,000\*\* \(8\.0x Next prerendered\) \| 10 \| 96 \| 387 \| 74\.4 \|$/m,
  );
  assert.match(table, /^\| \*\*polysite\*\*, `RENDER_CACHE=off` \| \*\*1,500\*\* \(15\.0x Next dynamic\) \|/m);
});

test('the details say how much of each pinned CPU other processes took', () => {
  assert.match(table, /^\| Next\.js 16, dynamic \| 100 \| 100 \| 2 \/ 1 \| 3 \| 17\.2 \| 0 \| 0 \|$/m);
});

test('the ratios line leaves out a peer that failed and says which row failed', () => {
  assert.match(table, /render cache on: 8\.0x Next prerendered, 0\.40x the precomputed buffer; render cache off: 15\.0x Next dynamic\./);
  assert.match(table, /^\| bare `renderToPipeableStream` \| failed: no 200 within 60000 ms \|/m);
  assert.match(table, /^\| one precomputed buffer \| 20,000 \| 10 \| 96 \| 387 \| - \|$/m);
});

test("with polysite's own answer replayed from the buffer, the cached row's ratio to it is quoted too", () => {
  const withReplay = peerTable(
    [
      measured('buffer', 'one precomputed buffer', 40000, { firstLoadJsKb: undefined }),
      measured('buffer-polysite', "polysite's answer from one precomputed buffer", 25000, { firstLoadJsKb: undefined }),
      measured('polysite', '**polysite** (render cache on)', 20000),
    ],
    { heading: 'heading' },
  );
  assert.match(withReplay, /render cache on: 0\.50x the precomputed buffer, 0\.80x its own answer from a buffer\./);
  assert.match(withReplay, /^\| polysite's answer from one precomputed buffer \| 25,000 \| 10 \| 96 \| 387 \| - \|$/m);
});

test('paired turns are summed up by the median of the per-turn ratios, not the ratio of the totals, with their range', () => {
  const turns = { base: { requests: 120_000, cpu: 3 }, other: { requests: 66_000, cpu: 3 }, ratios: [0.6, 0.7, 0.5, 0.6] };
  assert.equal(
    pairedSummary('buffer', 'polysite', turns, { turns: 4, turn: 3 }),
    '4 paired turns of 3 s, alternating: polysite / buffer = 0.60x (median; 0.50-0.70x), buffer 40,000 and polysite 22,000 req per CPU-s over all turns',
  );
});

test('paired turns measured after the table follow the ratios line, as the figures to quote', () => {
  const withPairs = peerTable(
    [measured('buffer', 'one precomputed buffer', 40000), measured('polysite', '**polysite** (render cache on)', 20000)],
    {
      heading: 'heading',
      pairs: [
        '10 paired turns of 3 s, alternating: polysite / buffer = 0.61x (median; 0.53-0.70x), buffer 40,000 and polysite 24,400 req per CPU-s over all turns',
      ],
    },
  );
  assert.match(
    withPairs,
    /render cache on: 0\.50x the precomputed buffer\.\n\nThe same ratios in paired turns, the figures to quote:\n\n- 10 paired turns of 3 s, alternating: polysite \/ buffer = 0\.61x /,
  );
  assert.doesNotMatch(table, /paired turns/);
});
