import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { get } from '../helpers/http.ts';
import { ROOT } from '../helpers/server.ts';

/** `npm run dev` running in a throwaway copy of the project, which a test may edit freely. */
export type DevProject = {
  /** The proxy's address (127.0.0.1 and its port). */
  url: string;
  project: string;
  /** Every line `npm run dev` printed so far. */
  lines: string[];
  read(file: string): string;
  /** Saves as `sed -i` and many editors do: a new file written beside it, renamed over it. */
  saveAtomically(file: string, text: string): void;
  /** Polls `path` until `check` passes on the answer (bounded by `ms`); returns the body. */
  eventually(path: string, check: (body: string, status: number) => boolean, ms?: number): Promise<string>;
  stop(): void;
};

let saves = 0;

/**
 * How long a reload may take before a test gives up: a bound that ends a hung run, not a
 * figure asserted (`npm run bench -- --only dev` measures reloads). Generous for busy CI hosts.
 */
export const RELOAD_WAIT_MS = 60_000;

export async function startDevProject(): Promise<DevProject> {
  const project = mkdtempSync(join(tmpdir(), 'polysite-dev-'));
  for (const entry of ['src', 'scripts', 'locales', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  const { LOCALES_DIR: _ignored, ...env } = process.env;
  const dev: ChildProcess = spawn('npm', ['run', 'dev'], {
    cwd: project,
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  dev.stderr!.resume();
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm run dev did not start in 90 s')), 90_000);
    createInterface({ input: dev.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /serving (http:\/\/localhost:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
  });
  const read = (file: string) => readFileSync(join(project, file), 'utf8');
  return {
    url,
    project,
    lines,
    read,
    saveAtomically(file, text) {
      const temporary = join(project, `${file}.${process.pid}-${++saves}.tmp`);
      writeFileSync(temporary, text);
      renameSync(temporary, join(project, file));
    },
    async eventually(path, check, ms = RELOAD_WAIT_MS) {
      const deadline = Date.now() + ms;
      let last = '';
      while (Date.now() < deadline) {
        const response = await get(url, path).catch((error: Error) => ({ status: 0, body: error.message }));
        last = `${response.status} ${response.body.slice(0, 300)}`;
        if (check(response.body, response.status)) return response.body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${path}: not seen within ${ms} ms; last answer: ${last}`);
    },
    stop() {
      if (dev.pid) process.kill(-dev.pid, 'SIGKILL');
      rmSync(project, { recursive: true, force: true });
    },
  };
}
