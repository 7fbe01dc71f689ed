// `npm run bench -- --only dev`: how long an author waits in `npm run dev`, from saving a
// file to the new text in Chromium (the open tab reloads by itself). Saves are atomic (a
// new file renamed over the old, as editors and `sed -i` save). Measured on a throwaway
// copy of the project: a Markdown page and messages.json of the default site, a screen
// under src/ (rebuild and restart), a change to the server's code alone and to the browser's
// code alone, and a Markdown page of a generated site of
// BENCH_DEV_PAGES pages (10,000 by default; 0 leaves it out). Each line also gives the CPU time
// `npm run dev` spent per save (Linux): a figure other work on the host changes less than the time.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../test/helpers/browser.ts';
import { ROOT_DIR } from '../../src/server/config.ts';
import { generateLargeSite } from '../large-site.ts';
import { hasTaskset, median } from './harness.ts';

const SAVES = Number(process.env.BENCH_DEV_SAVES ?? 10);
const LARGE_PAGES = Number(process.env.BENCH_DEV_PAGES ?? 10_000);

type Dev = { url: string; project: string; child: ChildProcess; started: number };

async function startDev(localesDir?: string): Promise<Dev> {
  const project = mkdtempSync(join(tmpdir(), 'polysite-bench-dev-'));
  for (const entry of ['src', 'scripts', 'locales', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(ROOT_DIR, entry), join(project, entry), { recursive: true });
  }
  symlinkSync(join(ROOT_DIR, 'node_modules'), join(project, 'node_modules'), 'dir');
  const { LOCALES_DIR: _unset, ...env } = process.env;
  const began = performance.now();
  const child = spawn('npm', ['run', 'dev'], {
    cwd: project,
    env: { ...env, PORT: '0', ...(localesDir ? { LOCALES_DIR: localesDir } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm run dev did not start in 10 minutes')), 600_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /serving (http:\/\/localhost:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { url, project, child, started: performance.now() - began };
}

function stopDev(dev: Dev): void {
  try {
    if (dev.child.pid) process.kill(-dev.child.pid, 'SIGKILL');
  } catch {
    // It stopped already.
  }
  rmSync(dev.project, { recursive: true, force: true });
}

function saveAtomically(file: string, text: string): void {
  writeFileSync(`${file}.bench.tmp`, text);
  renameSync(`${file}.bench.tmp`, file);
}

/** Milliseconds from each save to an element matching `selector` with `text(n)` (any text when null) in the open tab. */
async function timeSaves(
  dev: Dev,
  page: Page,
  saves: number,
  save: (n: number) => void,
  text: (n: number) => string | null,
  selector: (n: number) => string,
) {
  const times: number[] = [];
  const cpuBefore = groupCpuSeconds(dev.child.pid!);
  for (let n = 1; n <= saves; n++) {
    const started = performance.now();
    save(n);
    await page.waitForFunction(
      ([selector, wanted]) =>
        [...document.querySelectorAll(selector!)].some((element) => wanted === null || element.textContent === wanted),
      [selector(n), text(n)] as const,
      { timeout: 60_000, polling: 'raf' },
    );
    times.push(performance.now() - started);
    // Let the tab settle (hydration) before the next save.
    await page.waitForSelector('html[data-hydrated]');
  }
  const cpuAfter = groupCpuSeconds(dev.child.pid!);
  return { times, cpu: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / saves };
}

function report(name: string, { times, cpu }: { times: number[]; cpu: number | null }): void {
  const sorted = [...times].sort((a, b) => a - b);
  const cpuNote = cpu === null ? '' : `, npm run dev's CPU ${cpu.toFixed(2)} s a save`;
  console.log(
    `  ${name.padEnd(44)} median ${Math.round(median(times))} ms, min ${Math.round(sorted[0]!)}, max ${Math.round(sorted.at(-1)!)} (${times.length} saves)${cpuNote}`,
  );
}

const CLOCK_TICKS = 100; // USER_HZ, the unit of the times in /proc/<pid>/stat

/**
 * The CPU seconds the process group `pgid` has used: each live process's own and that of its
 * children it has waited for (the servers a rebuild replaced). Null without /proc (not Linux).
 */
function groupCpuSeconds(pgid: number): number | null {
  let ticks = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split at the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    // utime, stime, cutime, cstime
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / CLOCK_TICKS;
}

async function open(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated]');
  return page;
}

export async function devPass(): Promise<void> {
  // `npm run dev` (esbuild, its servers) and Chromium get every CPU, as on an author's machine:
  // not the load generator's one CPU (harness.ts), which their children would inherit.
  if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  const browser = await launchBrowser();
  try {
    console.log('\nnpm run dev: from an atomic save to the new text in Chromium');
    const dev = await startDev();
    try {
      console.log(`  default site: serving after ${Math.round(dev.started)} ms`);
      const about = join(dev.project, 'locales/en/pages/about.md');
      const original = readFileSync(about, 'utf8');
      let page = await open(browser, `${dev.url}/en/about`);
      report(
        'Markdown page (default site)',
        await timeSaves(
          dev,
          page,
          SAVES,
          (n) => saveAtomically(about, original.replace(/^title: .*$/m, `title: "About ${n}"`)),
          (n) => `About ${n}`,
          () => 'h1',
        ),
      );
      // One tab per pass: a tab left open reloads at every save too, and would be timed with it.
      await page.context().close();
      const messages = join(dev.project, 'locales/de/messages.json');
      const catalog = readFileSync(messages, 'utf8');
      page = await open(browser, `${dev.url}/de`);
      report(
        'messages.json (default site)',
        await timeSaves(
          dev,
          page,
          SAVES,
          (n) => saveAtomically(messages, catalog.replace(/"nav.blog": "[^"]*"/, `"nav.blog": "Blog ${n}"`)),
          (n) => `Blog ${n}`,
          () => 'a',
        ),
      );
      // A save under src/ of `file`, its text with `from` replaced by what marks save n, seen when `seen(n)` is on the page.
      const codeSaves = async (label: string, file: string, from: string, to: (n: number) => string, seen: (n: number) => string) => {
        const path = join(dev.project, file);
        const code = readFileSync(path, 'utf8');
        report(
          label,
          await timeSaves(
            dev,
            page,
            Math.min(SAVES, 5),
            (n) => saveAtomically(path, code.replace(from, to(n))),
            () => null,
            seen,
          ),
        );
      };
      await page.context().close();
      page = await (await browser.newContext()).newPage();
      await page.goto(`${dev.url}/en/nope`);
      await page.waitForSelector('html[data-hydrated]');
      await codeSaves(
        'screen in src/ (rebuild and restart)',
        'src/routes/screens/not-found.tsx',
        '<h1',
        (n) => `<h1 data-bench="${n}"`,
        (n) => `h1[data-bench="${n}"]`,
      );
      // The server's code alone (the browser's bundle is not made again): the document's shell.
      await codeSaves(
        "server's code in src/ (document shell)",
        'src/server/pages/document-shell.ts',
        "'</head><body>'",
        (n) => `'</head><body data-bench="${n}">'`,
        (n) => `body[data-bench="${n}"]`,
      );
      // The browser's code alone (the server runs on): seen once the new code has hydrated the page.
      await codeSaves(
        "browser's code in src/ (hydration mark)",
        'src/client/main.tsx',
        "dataset.hydrated = ''",
        (n) => `dataset.hydrated = '${n}'`,
        (n) => `html[data-hydrated="${n}"]`,
      );
    } finally {
      stopDev(dev);
    }
    if (LARGE_PAGES > 0) {
      const locales = readdirSync(join(ROOT_DIR, 'locales')).length;
      const localesDir = generateLargeSite(join(ROOT_DIR, 'locales'), Math.round(LARGE_PAGES / locales));
      const large = await startDev(localesDir);
      try {
        console.log(`  ${LARGE_PAGES.toLocaleString('en')}-page site: serving after ${Math.round(large.started)} ms`);
        const file = join(localesDir, 'de/pages/docs/ref/s010/p5.md');
        const original = readFileSync(file, 'utf8');
        const page = await open(browser, `${large.url}/de/docs/ref/s010/p5`);
        report(
          `Markdown page (${LARGE_PAGES.toLocaleString('en')}-page site)`,
          await timeSaves(
            large,
            page,
            SAVES,
            (n) => saveAtomically(file, original.replace(/^title: .*$/m, `title: "Seite ${n}"`)),
            (n) => `Seite ${n}`,
            () => 'h1',
          ),
        );
      } finally {
        stopDev(large);
        rmSync(localesDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
}
