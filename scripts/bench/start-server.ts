/**
 * Starts a server command on a free loopback port in its own process group and waits for its
 * first HTTP 200 on `path`: the time from spawn to that answer is its cold start.
 */
import { readFileSync } from 'node:fs';
import { startGroup, stopGroup, type Group } from './process-group.ts';
import { freePort } from '../free-port.ts';

export type Server = { group: Group; url: string; coldStartMs: number; firstBody: string };

export async function startServer(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; path: string; logFile: string; cpu?: number; timeoutMs?: number },
): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${options.path}`;
  const started = performance.now();
  const group = startGroup(command, {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    logFile: options.logFile,
    cpu: options.cpu,
  });
  try {
    for (;;) {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      if (response?.status === 200) {
        const coldStartMs = Math.round(performance.now() - started);
        return { group, url, coldStartMs, firstBody: await response.text() };
      }
      await response?.body?.cancel();
      if (group.child.exitCode !== null || group.child.signalCode !== null)
        throw new Error(`exited during start-up${logTail(options.logFile)}`);
      if (performance.now() - started > (options.timeoutMs ?? 60_000))
        throw new Error(`no 200 within ${options.timeoutMs ?? 60_000} ms${logTail(options.logFile)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } catch (error) {
    await stopGroup(group);
    throw error;
  }
}

function logTail(logFile: string): string {
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-5);
  return lines.join('') ? `; last lines of ${logFile}:\n  ${lines.join('\n  ')}` : '';
}
