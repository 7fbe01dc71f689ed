import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type RunningServer = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  stop(): Promise<number | null>;
};

/**
 * Starts the real built server (`node dist/server/main.js`, what the Procfile runs)
 * on an ephemeral loopback port and resolves when it logs that it is listening.
 * `npm test` builds first.
 */
/**
 * How long a server may take to start or to refuse: a bound that ends a hung run, not a
 * figure asserted (cold start is measured by `npm run bench`). Generous because CI hosts
 * run other jobs, and a large fixture's start-up compiles hundreds of pages.
 */
const START_WAIT_MS = 30_000;

export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'https://example.test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${START_WAIT_MS / 1000} s; stderr: ${stderr}`));
    }, START_WAIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const entry = safeJson(line);
      if (entry?.msg !== 'listening') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const port = entry.port as number;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        child,
        lines,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and stderr. */
export function startServerExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), START_WAIT_MS);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

function safeJson(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
