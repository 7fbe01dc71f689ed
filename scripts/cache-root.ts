// Where `npm run build` keeps its caches between builds: node_modules/.cache, or the folder
// POLYSITE_CACHE_DIR names. `npm run bench` points its builds of generated sites at a fresh
// folder of its own, so a cold build is cold on every run and the checkout's caches are
// neither used nor filled by them.
import { join, resolve } from 'node:path';
import { ROOT_DIR } from '../src/server/config.ts';

export const CACHE_ROOT = process.env.POLYSITE_CACHE_DIR
  ? resolve(process.env.POLYSITE_CACHE_DIR)
  : join(ROOT_DIR, 'node_modules', '.cache');
