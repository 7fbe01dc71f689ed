import autocannon from 'autocannon';

/** A server under comparison: the URL to load, and the CPU seconds its processes have used so far. */
export type TurnTarget = { url: string; cpuSeconds: () => number };

export type Turns = Record<'base' | 'other', { requests: number; cpu: number }> & {
  /** Each turn's req per CPU-s of `other` over `base`'s next to it. */
  ratios: number[];
};

export type TurnSettings = { rounds: number; turnSeconds: number; warmupSeconds: number; connections: number };

/**
 * Two servers run side by side (one idle while the other is loaded), after a warm-up,
 * and take short turns, base-other then other-base: load on a shared machine changes
 * from second to second, and this way both see the same. Used by `npm run bench`
 * (large site vs default site, monitoring on vs off) and `npm run bench:peers -- --pair`.
 */
export async function loadInTurns(base: TurnTarget, other: TurnTarget, settings: TurnSettings): Promise<Turns> {
  const targets = { base, other };
  const { connections } = settings;
  const turns: Turns = { base: { requests: 0, cpu: 0 }, other: { requests: 0, cpu: 0 }, ratios: [] };
  for (const { url } of [base, other]) await autocannon({ url, connections, duration: settings.warmupSeconds });
  for (let round = 0; round < settings.rounds; round++) {
    const perCpu = { base: 0, other: 0 };
    for (const side of round % 2 ? (['other', 'base'] as const) : (['base', 'other'] as const)) {
      const { url, cpuSeconds } = targets[side];
      const cpuBefore = cpuSeconds();
      const result = await autocannon({ url, connections, duration: settings.turnSeconds });
      const cpu = cpuSeconds() - cpuBefore;
      // A comparison of anything but two pages served whole (a 404, a redirect, refused connections) is no comparison.
      if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors in a turn`);
      turns[side].requests += result.requests.total;
      turns[side].cpu += cpu;
      perCpu[side] = result.requests.total / cpu;
    }
    turns.ratios.push(perCpu.other / perCpu.base);
  }
  return turns;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
