// `npm run bench`'s export pass: `npm run export` (its program, after the build) of the
// default site and of a generated site of 10,000 pages (2,000 per locale; the export's
// targets: under 20 s and under 1 GB of peak memory on this machine). The export
// prints its own figures (pages, files, bytes, seconds, peak RSS), read back here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_DIR } from '../../src/server/config.ts';
import { generateLargeSite } from '../large-site.ts';
import { fmt, freshCacheDir, run } from './harness.ts';

const LARGE_PAGES = 10_000;
/** Exports of the large site measured one after the other: their spread shows what else ran on the machine. */
const LARGE_RUNS = 2;

type Figures = { pages: number; files: number; bytes: number; seconds: number; peakMb: number };

/** Runs the built export into a new temporary folder and reads its summary line. */
export function exportOnce(env: Record<string, string> = {}, distDir = join(ROOT_DIR, 'dist')): Figures {
  const out = mkdtempSync(join(tmpdir(), 'polysite-bench-export-'));
  try {
    const result = spawnSync(process.execPath, [join(distDir, 'server', 'export.js'), '--out', out], {
      cwd: ROOT_DIR,
      env: { ...process.env, PUBLIC_URL: 'https://example.com', DIST_DIR: distDir, ...env },
      encoding: 'utf8',
    });
    const match = /exported ([\d,]+) pages .*: ([\d,]+) files, [\d.]+ MB \(([\d,]+) bytes\) in ([\d.]+) s; peak memory (\d+) MB/.exec(
      result.stdout,
    );
    if (result.status !== 0 || !match) throw new Error(`export failed (${result.status}): ${result.stderr || result.stdout}`);
    const number = (text: string) => Number(text.replaceAll(',', ''));
    return {
      pages: number(match[1]!),
      files: number(match[2]!),
      bytes: number(match[3]!),
      seconds: Number(match[4]),
      peakMb: Number(match[5]),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function exportPass(): Promise<void> {
  const rows: string[] = [];
  const row = (site: string, figures: Figures) =>
    rows.push(
      `| ${site} | ${fmt(figures.pages)} | ${fmt(figures.files)} | ${(figures.bytes / 1024 / 1024).toFixed(1)} | ${figures.seconds.toFixed(1)} | ${figures.peakMb} |`,
    );
  row('default', exportOnce());

  const locales = readdirSync(join(ROOT_DIR, 'locales')).length;
  const localesDir = generateLargeSite(join(ROOT_DIR, 'locales'), Math.round(LARGE_PAGES / locales));
  const distDir = mkdtempSync(join(tmpdir(), 'polysite-bench-export-dist-'));
  const env = { LOCALES_DIR: localesDir };
  const cache = freshCacheDir();
  try {
    const started = performance.now();
    run('npm', ['run', '--silent', 'build'], { ...env, ...cache.env, DIST_DIR: distDir }, 'ignore');
    const buildSeconds = (performance.now() - started) / 1000;
    for (let i = 0; i < LARGE_RUNS; i++) row(`${fmt(LARGE_PAGES)} pages, run ${i + 1}`, exportOnce(env, distDir));
    console.log(
      `\nexport (after the build; the ${fmt(LARGE_PAGES)}-page site built in ${buildSeconds.toFixed(1)} s; targets: under 20 s, under 1,024 MB)`,
    );
  } finally {
    rmSync(localesDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
    cache.dispose();
  }
  console.log('\n| site | pages | files | MB written | seconds | peak RSS MB |');
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const line of rows) console.log(line);
}
