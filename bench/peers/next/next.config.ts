import { join } from 'node:path';
import type { NextConfig } from 'next';

/**
 * One app, two builds: NEXT_MODE=dynamic renders every request, NEXT_MODE=static prerenders every
 * page. Route segment config must be a literal in the page file, so each mode has its own page
 * file (`page.dynamic.tsx`, `page.static.tsx`) and the mode's page extension picks one; each mode
 * builds into its own folder so both can be served from one checkout.
 */
const mode = process.env.NEXT_MODE === 'static' ? 'static' : 'dynamic';
// The page all peers share lives in ../fixture: the bundler's root must include it.
const peersRoot = join(process.cwd(), '..');

const config: NextConfig = {
  distDir: `.next-${mode}`,
  pageExtensions: [`${mode}.tsx`, 'tsx', 'ts'],
  turbopack: { root: peersRoot },
  outputFileTracingRoot: peersRoot,
  // The benchmark measures serving; the peer's types are checked by its own editor, not on every build.
  typescript: { ignoreBuildErrors: true },
};

export default config;
