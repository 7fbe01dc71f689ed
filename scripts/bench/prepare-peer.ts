/**
 * Gets a peer of the comparison ready to serve: its own `npm install`, then `npm run build`,
 * each skipped when nothing it depends on changed since it last succeeded (a stamp file holds a
 * hash of the inputs). Output goes to our stderr; a failure throws.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited, startGroup } from './process-group.ts';

export type Peer = {
  name: string;
  dir: string;
  /** What `npm run build` makes; missing means build again. */
  outputs: string[];
  /** Other files its tools write (type stubs, caches): not inputs of the build. */
  generated: string[];
};

const INSTALL_STAMP = join('node_modules', '.bench-peers-installed');
const BUILD_STAMP = '.bench-peers-built';

export async function preparePeer(peer: Peer, options: { fixtureDir: string; force: boolean }): Promise<void> {
  // NODE_ENV=production would make npm leave out the build tools (devDependencies).
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.NODE_ENV;
  const installKey = hash(peer.dir, ['package.json', 'package-lock.json']);
  if (options.force || stamp(peer.dir, INSTALL_STAMP) !== installKey) {
    // `npm install` keeps every version the lock pins, like `npm ci`, but also fetches the native
    // packages of a platform the lock does not list (next's SWC, rollup); --no-save leaves the lock as committed.
    await run(peer, 'npm install --no-save --no-audit --no-fund', env);
    writeFileSync(join(peer.dir, INSTALL_STAMP), installKey);
  }
  const buildKey = () =>
    `${installKey}:${hash(peer.dir, sources(peer.dir, peer))}:${hash(options.fixtureDir, sources(options.fixtureDir))}`;
  const built = peer.outputs.every((output) => existsSync(join(peer.dir, output)));
  if (options.force || !built || stamp(peer.dir, BUILD_STAMP) !== buildKey()) {
    await run(peer, 'npm run build', env);
    writeFileSync(join(peer.dir, BUILD_STAMP), buildKey()); // read again: a build may normalize its own config
  }
}

async function run(peer: Peer, command: string, env: NodeJS.ProcessEnv) {
  process.stderr.write(`\n[${peer.name}] ${command}\n`);
  const code = await exited(startGroup(command, { cwd: peer.dir, env }));
  if (code !== 0) throw new Error(`${peer.name}: \`${command}\` exited with ${code}`);
}

/** Every file under `dir` (relative paths, sorted) but dependencies, outputs, tool files and stamps. */
function sources(dir: string, skip: { outputs: string[]; generated: string[] } = { outputs: [], generated: [] }): string[] {
  const excluded = new Set(['node_modules', BUILD_STAMP, ...skip.outputs, ...skip.generated]);
  const walk = (relative: string): string[] =>
    readdirSync(join(dir, relative), { withFileTypes: true })
      .filter((entry) => !(relative === '' && excluded.has(entry.name)))
      .flatMap((entry) => {
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
      });
  return walk('').sort();
}

function hash(dir: string, files: string[]): string {
  const digest = createHash('sha256');
  for (const file of files)
    digest
      .update(`${file}\0`)
      .update(readFileSync(join(dir, file)))
      .update('\0');
  return digest.digest('hex');
}

function stamp(dir: string, file: string): string | undefined {
  return existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : undefined;
}
