import { isIPv4, isIPv6 } from 'node:net';

/** A token bucket per client (relay-design R-P1): `burst` at once, refilled at `ratePerMinute`. */
export type RateLimiter = { take(ip: string): boolean; size(): number };

type Options = { ratePerMinute: number; burst: number; now?: () => number };

export function createRateLimiter({ ratePerMinute, burst, now = Date.now }: Options): RateLimiter {
  const perMs = ratePerMinute / 60_000;
  // A bucket idle this long is full again, which is the same as having no bucket:
  // forgetting it bounds memory to the clients seen in that window.
  const refillMs = Math.ceil(burst / perMs);
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt = now();

  const sweep = (time: number) => {
    if (time - sweptAt < refillMs) return;
    sweptAt = time;
    for (const [key, bucket] of buckets) if (time - bucket.at >= refillMs) buckets.delete(key);
  };

  return {
    size: () => buckets.size,
    take(ip) {
      const time = now();
      sweep(time);
      const key = clientKey(ip);
      const bucket = buckets.get(key) ?? { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.at) * perMs);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}

/**
 * SECURITY: one IPv6 host usually owns a whole /64 and can pick a new address
 * per request, so IPv6 clients share a bucket per /64. IPv4 (also written as
 * `::ffff:a.b.c.d`) is keyed by the full address.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
