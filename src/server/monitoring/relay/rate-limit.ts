import { isIPv4, isIPv6 } from 'node:net';

/** A token bucket per client: `burst` at once, refilled at `ratePerMinute`. */
export type RateLimiter = { take(key: string): boolean; size(): number };

type Options = { ratePerMinute: number; burst: number; maxClients: number; now?: () => number };

export function createRateLimiter({ ratePerMinute, burst, maxClients, now = Date.now }: Options): RateLimiter {
  const perMs = ratePerMinute / 60_000;
  // A bucket idle this long is full again, which is the same as having no bucket:
  // forgetting it bounds memory to the clients seen in that window.
  const refillMs = Math.ceil(burst / perMs);
  // Least recently seen first (each take moves its key to the end), so that past
  // `maxClients` the one forgotten is the client that has been quiet longest.
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt = now();

  const sweep = (time: number) => {
    if (time - sweptAt < refillMs) return;
    sweptAt = time;
    for (const [key, bucket] of buckets) if (time - bucket.at >= refillMs) buckets.delete(key);
  };

  return {
    size: () => buckets.size,
    take(key) {
      const time = now();
      sweep(time);
      const bucket = buckets.get(key) ?? { tokens: burst, at: time };
      buckets.delete(key);
      // SECURITY: a hard bound, whatever the sweep has not caught up with yet: many
      // addresses in one refill window must not grow the map without end.
      if (buckets.size >= maxClients) buckets.delete(buckets.keys().next().value!);
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
 * The key a client's limits are kept under. SECURITY: one IPv6 host usually owns
 * a whole /64 and can pick a new address per request, so IPv6 clients share a key
 * per /64. IPv4, also when written as an IPv4-mapped IPv6 address in any form
 * (`::ffff:203.0.113.9`, `0:0:0:0:0:ffff:cb00:7109`), is keyed by the full address.
 * Callers pass addresses only; anything else is returned as it is.
 */
export function clientKey(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted-quad tail as two groups, zone dropped). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%', 1)[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}
