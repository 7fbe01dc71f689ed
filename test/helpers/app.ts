import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite } from '../../src/server/http/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { Lifecycle } from '../../src/server/http/lifecycle.ts';
import { createLogger } from '../../src/server/http/log.ts';
import type { Manifest } from '../../src/server/site/manifest.ts';
import { type PreparedSite, prepareSite } from '../../src/server/site/prepare-site.ts';
import { ROOT } from './server.ts';

/**
 * The real app (prepareSite + createSite) over a content folder, on a loopback
 * port. `images` go into a copy of the build's manifest, as the build would
 * write them for that content.
 */
export async function serveApp(
  env: Record<string, string>,
  images: Manifest['images'] = {},
  /** Writes what a build would into the app's dist folder (a content snapshot). */
  build: (dist: string) => void = () => {},
): Promise<{ url: string; site: PreparedSite; close: () => void }> {
  const dist = mkdtempSync(join(tmpdir(), 'polysite-dist-'));
  build(dist);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'manifest.json'), 'utf8'));
  writeFileSync(join(dist, 'manifest.json'), JSON.stringify({ ...manifest, images }));
  const config = loadConfig({ PORT: '0', PUBLIC_URL: 'https://example.test', DIST_DIR: dist, LOG_LEVEL: 'silent', ...env });
  const site = await prepareSite(config);
  const { handle } = createSite({ config, site, log: createLogger(() => {}), lifecycle: new Lifecycle() });
  const server = createServer(handle).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, site, close: () => server.close() };
}
