import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, members, peakRssMb, startGroup, stopGroup, type Group } from '../../scripts/bench/process-group.ts';

// A parent that starts a child in its group; each spends 200 ms of CPU, says so and idles.
// The child ignores SIGTERM, as a stuck worker would.
const PARENT = `
const { spawn } = require('node:child_process');
const busy = 'while (process.cpuUsage().user < 200000) {}';
spawn(process.execPath, ['-e', busy + "; process.on('SIGTERM', () => {}); console.log('child up'); setInterval(() => {}, 1000)"], { stdio: 'inherit' });
eval(busy);
console.log('parent up');
setInterval(() => {}, 1000);
`;

function start(): { group: Group; log: string; stop: (graceMs: number) => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'polysite-group-'));
  const log = join(dir, 'out.log');
  const group = startGroup(`node -e "${PARENT.replaceAll('"', '\\"')}"`, { cwd: process.cwd(), env: process.env, logFile: log });
  const stop = async (graceMs: number) => {
    await stopGroup(group, graceMs);
    rmSync(dir, { recursive: true, force: true });
  };
  return { group, log, stop };
}

const bothUp = (log: string) => () => /parent up/.test(readFileSync(log, 'utf8')) && /child up/.test(readFileSync(log, 'utf8'));

async function until(condition: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a process group counts the CPU time and peak memory of every process in it', async () => {
  const { group, log, stop } = start();
  try {
    await until(bothUp(log));
    // The two Node processes, not the bash that started them (Node 24 names its main thread
    // `MainThread`, which is what /proc shows as the command, Node 20 `node`).
    const commands = members(group).map((member) => member.comm);
    assert.equal(commands.length, 2, commands.join(', '));
    assert.ok(
      commands.every((comm) => comm === 'node' || comm === 'MainThread'),
      commands.join(', '),
    );
    assert.ok(cpuSeconds(group) >= 0.39, `cpu ${cpuSeconds(group)} s: both processes' 200 ms`);
    // Two Node processes: more than one alone could hold.
    assert.ok(peakRssMb(group) > 2 * 20, `peak RSS ${peakRssMb(group)} MB`);
  } finally {
    await stop(300);
  }
});

test('stopping a group ends its children too, with SIGKILL for one that ignores SIGTERM', async () => {
  const { group, log, stop } = start();
  await until(bothUp(log));
  await stop(300);
  assert.deepEqual(members(group), []);
});
