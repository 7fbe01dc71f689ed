/**
 * How busy each CPU has been since boot, from /proc/stat. Read before and after a load, it
 * tells how much of the server's and the load generator's CPU other work took meanwhile:
 * the measure of how far a run on a shared machine can be trusted.
 */
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ, the unit of /proc/stat

/** Busy seconds per CPU (user, nice, system, irq, softirq, steal), indexed by CPU number. */
export function busySeconds(): number[] {
  const busy: number[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+) (.*)$/.exec(line);
    if (!match) continue;
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = match[2]!.split(' ').map(Number);
    busy[Number(match[1])] = (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
  }
  return busy;
}
