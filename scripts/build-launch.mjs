// `npm run build`: scripts/build.ts, compiled to JavaScript and kept between builds
// (compiled-build.mjs), run by Node without a TypeScript loader; under tsx when the build
// is to use no cache (`--no-cache`, POLYSITE_NO_CACHE) or its code cannot be compiled (tsx
// then says why). In a process whose C allocator keeps at most two arenas: glibc gives each
// thread that allocates its own arena (up to eight per core) and keeps in it what the thread
// frees, so what the content threads and the compressing thread pool allocate and free (each
// locale's HTML, its index and their compressed forms) stayed in the process after it was
// written: on the 10,000-page bench site about a fifth of the build's peak memory. glibc reads
// MALLOC_ARENA_MAX only when a process starts, so it is set here, in plain JavaScript (no
// TypeScript loader to start twice), for the process that builds; other systems' allocators
// ignore it.
//
// V8's semi-spaces are 16 MB, V8's default for this heap size. The flag is the process's, so
// it sizes the content threads' young generations too (a worker's resourceLimits cannot
// lower it): two threads' young generations are resident at once, and larger semi-spaces
// raised a large site's peak memory much more than they saved in garbage collection.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledBuild } from './compiled-build.mjs';

const args = process.argv.slice(2);
const env = process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX ? { ...process.env, MALLOC_ARENA_MAX: '2' } : { ...process.env };
const cached = !args.includes('--no-cache') && !(env.POLYSITE_NO_CACHE && env.POLYSITE_NO_CACHE !== '0');
// Where the build keeps its caches (scripts/cache-root.ts).
const cacheRoot = env.POLYSITE_CACHE_DIR
  ? resolve(env.POLYSITE_CACHE_DIR)
  : fileURLToPath(new URL('../node_modules/.cache', import.meta.url));
let command = ['--import', 'tsx', fileURLToPath(new URL('./build.ts', import.meta.url))];
if (cached) {
  try {
    const { script, workers } = await compiledBuild(cacheRoot);
    command = [script];
    env.POLYSITE_BUILD_WORKERS = JSON.stringify(workers);
  } catch {
    // Not compiled (a syntax error, say): tsx runs the TypeScript and reports it.
  }
}
const child = spawnSync(process.execPath, ['--max-semi-space-size=16', ...command, ...args], { stdio: 'inherit', env });
process.exit(child.status ?? 1);
