import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey, createRateLimiter } from '../../../../src/server/monitoring/relay/rate-limit.ts';

function limiter(options: { ratePerMinute: number; burst: number; maxClients?: number }) {
  let time = 1_000_000;
  const limit = createRateLimiter({ maxClients: 10_000, ...options, now: () => time });
  return { limit, advance: (ms: number) => (time += ms) };
}

describe('createRateLimiter', () => {
  test('should allow a burst, then refill at the rate', () => {
    const { limit, advance } = limiter({ ratePerMinute: 60, burst: 3 });
    assert.deepEqual(
      [1, 2, 3, 4].map(() => limit.take('192.0.2.1')),
      [true, true, true, false],
    );
    advance(999);
    assert.equal(limit.take('192.0.2.1'), false);
    advance(1);
    assert.equal(limit.take('192.0.2.1'), true);
    assert.equal(limit.take('192.0.2.1'), false);
  });

  test('should keep one bucket per client', () => {
    const { limit } = limiter({ ratePerMinute: 60, burst: 1 });
    assert.equal(limit.take('192.0.2.1'), true);
    assert.equal(limit.take('192.0.2.1'), false);
    assert.equal(limit.take('192.0.2.2'), true);
  });

  test('should forget buckets that have refilled, so memory stays bounded', () => {
    const { limit, advance } = limiter({ ratePerMinute: 60, burst: 2 });
    for (let i = 0; i < 100; i++) limit.take(`192.0.2.${i}`);
    assert.equal(limit.size(), 100);
    advance(2_000);
    limit.take('198.51.100.1');
    assert.equal(limit.size(), 1);
  });

  test('should hold at most maxClients buckets however many arrive at once, forgetting the quietest', () => {
    const { limit } = limiter({ ratePerMinute: 60, burst: 1, maxClients: 3 });
    assert.equal(limit.take('192.0.2.1'), true);
    assert.equal(limit.take('192.0.2.2'), true);
    assert.equal(limit.take('192.0.2.3'), true);
    assert.equal(limit.take('192.0.2.1'), false, 'seen again: now the most recent');
    for (let i = 0; i < 1_000; i++) limit.take(`client-${i}`);
    assert.equal(limit.size(), 3);
    const { limit: small } = limiter({ ratePerMinute: 60, burst: 1, maxClients: 2 });
    small.take('192.0.2.1');
    small.take('192.0.2.2');
    small.take('192.0.2.1');
    small.take('192.0.2.3');
    assert.equal(small.take('192.0.2.1'), false, 'the most recently seen client is kept');
    assert.equal(small.take('192.0.2.2'), true, 'the quietest was forgotten');
  });
});

describe('clientKey', () => {
  for (const [ip, key] of [
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0001:0002::9', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:3:4::', '2001:db8:1:2::/64'],
    ['not-an-ip', 'not-an-ip'],
  ] as const) {
    test(`should key ${ip} as ${key}`, () => {
      assert.equal(clientKey(ip), key);
    });
  }
});
