// `npm run bench -- --pages N --versions V`: a generated site of N pages whose docs have V
// versions (the latest and V - 1 older copies: N × V docs pages in all), beside the same
// site unversioned. The targets (docs/versions.md): build <= 60 s, cold start <= 2 s, idle
// RSS <= 200 MB, RSS after every page of the latest version and 1,000 random pages of older
// ones <= 300 MB, and a latest page's weight and throughput within 10 % of the unversioned site's.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_DIR } from '../../src/server/config.ts';
import { crawl, cpuSeconds, fmt, freshCacheDir, median, peakRss, rss, run, type Server, startServer, stop, timedBuild } from './harness.ts';
import { loadInTurns } from './turns.ts';
import { generatedPage, generateLargeSite, generateVersionedSite } from '../large-site.ts';

/** The page every start waits for, and the page compared: a generated docs page of the latest version. */
const PROBE = '/de/docs/anleitungen/installation';
const OLD_PAGES = 1000;
const VISIT_CONCURRENCY = 16;
const STARTS = 4;
const ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 12);
const TURN = { turnSeconds: 0.5, warmupSeconds: 1, connections: Number(process.env.BENCH_CONNECTIONS ?? 32) };

export async function versionsPass(pages: number, versions: number): Promise<void> {
  const locales = readdirSync(join(ROOT_DIR, 'locales')).length;
  const perLocale = Math.round(pages / locales);
  const versioned = generateVersionedSite(join(ROOT_DIR, 'locales'), perLocale, versions);
  const plainDir = generateLargeSite(join(ROOT_DIR, 'locales'), perLocale);
  const dists = [mkdtempSync(join(tmpdir(), 'polysite-versioned-dist-')), mkdtempSync(join(tmpdir(), 'polysite-plain-dist-'))];
  const env = { LOCALES_DIR: versioned.localesDir, DIST_DIR: dists[0]! };
  const plainEnv = { LOCALES_DIR: plainDir, DIST_DIR: dists[1]! };
  const page = generatedPage(versioned.localesDir);
  // Each site's build is cold: a fresh folder for its caches (the two sites share page text).
  const caches = [freshCacheDir(), freshCacheDir()];
  try {
    const build = timedBuild({ ...env, ...caches[0]!.env }, { wholeMachine: true });
    run('npm', ['run', '--silent', 'build'], { ...plainEnv, ...caches[1]!.env }, 'ignore');

    const coldStarts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const server = await startServer(env, PROBE);
      coldStarts.push(server.coldStartMs);
      await stop(server.child);
    }
    const server = await startServer(env, PROBE);
    let memory: string;
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idle = rss(server.child.pid!);
      const visited = await visit(server, versioned.names);
      memory = `RSS idle ${idle.toFixed(0)} MB; after ${fmt(visited.latest)} latest pages and ${fmt(visited.old)} random older pages (HTML and page data, ${visited.statuses}) ${rss(server.child.pid!).toFixed(0)} MB, peak ${peakRss(server.child.pid!).toFixed(0)} MB`;
    } finally {
      await stop(server.child);
    }

    const rows: string[] = [];
    const weights: string[] = [];
    for (const mode of ['on', 'off'] as const) {
      const servers: Server[] = [];
      try {
        servers.push(
          await startServer({ ...plainEnv, RENDER_CACHE: mode }, PROBE),
          await startServer({ ...env, RENDER_CACHE: mode }, PROBE),
        );
        const [plain, withVersions] = servers as [Server, Server];
        if (mode === 'on') {
          for (const path of [PROBE, page]) {
            const [a, b] = await Promise.all([weight(plain, path), weight(withVersions, path)]);
            weights.push(`\`${path}\` ${fmt(b)} bytes versioned, ${fmt(a)} unversioned (${((b / a - 1) * 100).toFixed(1)} %)`);
          }
        }
        for (const path of [PROBE, page]) {
          const target = (s: Server) => ({ url: s.url + path, cpuSeconds: () => cpuSeconds(s.child.pid!) });
          const turns = await loadInTurns(target(plain), target(withVersions), { rounds: ROUNDS, ...TURN });
          const perCpu = (side: 'base' | 'other') => turns[side].requests / turns[side].cpu;
          rows.push(
            `| ${mode} | \`${path}\` | ${fmt(perCpu('base'))} | ${fmt(perCpu('other'))} | **${signed(perCpu('other') / perCpu('base'))}** | ${signed(median(turns.ratios))} |`,
          );
        }
      } finally {
        await Promise.all(servers.map((s) => stop(s.child)));
      }
    }

    console.log(
      `\nversioned large site: ${fmt(pages)} pages × ${versions} versions of the docs (${locales} locales), built in ${build.seconds.toFixed(1)} s (${build.cpuSeconds} CPU-s, peak ${build.peakMb} MB; load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')})`,
    );
    console.log(`cold start ${Math.round(median(coldStarts))} ms (median of ${coldStarts.join(', ')}); ${memory}`);
    console.log(`weight: ${weights.join('; ')}`);
    console.log(
      '\n| render cache | URL | unversioned req per CPU-s | versioned req per CPU-s | versioned vs unversioned | turn by turn: median |',
    );
    console.log('|---|---|--:|--:|--:|--:|');
    for (const row of rows) console.log(row);
  } finally {
    rmSync(versioned.root, { recursive: true, force: true });
    rmSync(plainDir, { recursive: true, force: true });
    for (const dist of dists) rmSync(dist, { recursive: true, force: true });
    for (const cache of caches) cache.dispose();
  }
}

async function weight(server: Server, path: string): Promise<number> {
  return (await (await fetch(server.url + path)).arrayBuffer()).byteLength;
}

/** Every sitemap page (the latest version's and the rest of the site), then OLD_PAGES random docs pages of older versions; HTML and page data. */
async function visit(server: Server, names: readonly string[]) {
  const build = ((await (await fetch(`${server.url}/healthz`)).json()) as { build: string }).build;
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const latest = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const docs = latest.filter((path) => /^\/[^/]+\/docs\//.test(path));
  // A fixed sequence (not Math.random): the same old pages in every run.
  let seed = 1;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const old = Array.from({ length: OLD_PAGES }, () => {
    const path = docs[next() % docs.length]!;
    return path.replace(/^(\/[^/]+\/docs)\//, `$1/${names[next() % names.length]}/`);
  });
  const urls = [...latest, ...old].flatMap((path) => [path, `/_data/${build}${path}.json`]);
  const statuses = await crawl(server, urls, VISIT_CONCURRENCY);
  return { latest: latest.length, old: old.length, statuses };
}

function signed(ratio: number): string {
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
}
