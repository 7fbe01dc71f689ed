/**
 * A command started in its own process group, and what /proc says about that group: CPU time
 * and peak memory of every process in it, then stopping all of them. Linux only (/proc).
 * Measuring the group, not one PID, counts the workers a framework may fork.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ, the unit of utime and stime in /proc/<pid>/stat
/** Launch wrappers: their memory is not the server's. */
const WRAPPERS = new Set(['bash', 'sh', 'dash', 'taskset', 'npm', 'npx']);

export const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

export type Group = { child: ChildProcess; pid: number };

const live = new Set<Group>();

/**
 * Runs `command` with bash in a new process group (pinned to `cpu` when taskset exists), its
 * output appended to `logFile`, or on our stderr without one. `exec` keeps bash out of the tree.
 */
export function startGroup(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; logFile?: string; cpu?: number }): Group {
  const output = options.logFile ? openSync(options.logFile, 'a') : 2;
  const argv = ['bash', '-c', `exec ${command}`];
  const [file, ...args] = canPin && options.cpu !== undefined ? ['taskset', '-c', String(options.cpu), ...argv] : argv;
  const child = spawn(file!, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', output, output] });
  if (options.logFile) closeSync(output); // the child holds its own copy
  const group = { child, pid: child.pid! };
  live.add(group);
  return group;
}

/** Resolves with the exit code once the group's first process ends by itself. */
export async function exited(group: Group): Promise<number> {
  if (group.child.exitCode === null && group.child.signalCode === null) await once(group.child, 'exit');
  live.delete(group);
  return group.child.exitCode ?? 1; // null: ended by a signal
}

type Member = { pid: number; comm: string; state: string; ticks: number };

/** The live processes of the group (zombies left out). */
export function members(group: Group): Member[] {
  const found: Member[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split at the last ")".
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[2]) !== group.pid || fields[0] === 'Z') continue;
    found.push({
      pid: Number(entry),
      comm: stat.slice(stat.indexOf('(') + 1, close),
      state: fields[0]!,
      ticks: Number(fields[11]) + Number(fields[12]), // utime + stime
    });
  }
  return found;
}

/** User + system CPU seconds the group's live processes have used so far. */
export function cpuSeconds(group: Group): number {
  return members(group).reduce((sum, member) => sum + member.ticks, 0) / CLOCK_TICKS;
}

/** Sum of each process's peak resident set (VmHWM) in MB, launch wrappers left out. */
export function peakRssMb(group: Group): number {
  let kb = 0;
  for (const member of members(group)) {
    if (WRAPPERS.has(member.comm)) continue;
    try {
      kb += Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${member.pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited while we looked
    }
  }
  return kb / 1024;
}

/** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once no process of it is left. */
export async function stopGroup(group: Group, graceMs = 5000): Promise<void> {
  signal(group, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (members(group).length > 0) {
    if (performance.now() > deadline) {
      signal(group, 'SIGKILL');
      if (performance.now() > deadline + 2000) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  live.delete(group);
}

/** Every group still running: for the last-resort cleanup on interrupt or crash. */
export function liveGroups(): Group[] {
  return [...live];
}

/** Synchronous last resort, for process 'exit': SIGKILL every group not stopped yet. */
export function killLiveGroups(): void {
  for (const group of live) signal(group, 'SIGKILL');
  live.clear();
}

function signal(group: Group, name: NodeJS.Signals) {
  try {
    process.kill(-group.pid, name);
  } catch {
    // the group is already gone
  }
}
