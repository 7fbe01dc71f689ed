// `npm run export` (after `npm run build`): node dist/server/export.js [--out DIR] [--relay ORIGIN].
// Reads the same environment as the server (PUBLIC_URL, DEFAULT_LOCALE, LOCALES_DIR,
// PAGE_MAX_AGE, SENTRY_DSN, MONITORING_PATH...), writes the site to out/ (or DIR), and
// prints what it wrote. A mistake stops it with one line, as it does the server.
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, ROOT_DIR } from '../server/config.ts';
import { ContentError } from '../server/content/errors.ts';
import { exportSite } from './export-site.ts';
import { ExportError } from './files.ts';

function fail(message: string): never {
  process.stderr.write(`polysite export: ${message}\n`);
  process.exit(1);
}

let values: { out?: string; relay?: string };
try {
  ({ values } = parseArgs({ options: { out: { type: 'string' }, relay: { type: 'string' } } }));
} catch (error) {
  fail(`${(error as Error).message} (usage: npm run export -- [--out DIR] [--relay https://relay.example.com])`);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(`bad configuration: ${error.message}`);
  throw error;
}

const relay = values.relay !== undefined ? readRelay(values.relay) : null;
const outDir = resolve(values.out ?? resolve(ROOT_DIR, 'out'));
if (!process.env.PUBLIC_URL) {
  process.stderr.write(`polysite export: PUBLIC_URL is not set: canonical links, hreflang and the sitemap will name ${config.publicUrl}\n`);
}
if (config.sentry && !relay) {
  process.stderr.write(
    `polysite export: SENTRY_DSN is set: pages send browser errors to ${config.monitoring.path} on their own origin; proxy it to a SERVE=relay process (--relay writes the rules)\n`,
  );
}

try {
  const summary = await exportSite({ config, outDir, relay });
  const shown = relative(process.cwd(), outDir) || '.';
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `exported ${summary.pages.toLocaleString('en')} pages (${config.locales.length} locales) to ${shown.startsWith('..') || isAbsolute(shown) ? outDir : shown}/: ` +
      `${summary.files.toLocaleString('en')} files, ${(summary.bytes / 1024 / 1024).toFixed(1)} MB (${summary.bytes.toLocaleString('en')} bytes) ` +
      `in ${summary.seconds.toFixed(1)} s; peak memory ${peakMb.toFixed(0)} MB`,
  );
} catch (error) {
  // A mistake in the content, the folder or the build (no build yet, --out naming a file, no
  // permission) is one line; only a real fault of the exporter shows its stack.
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof ContentError || error instanceof ExportError || code !== undefined) fail((error as Error).message);
  if ((error as Error).message?.includes('npm run build')) fail((error as Error).message);
  throw error;
}

function readRelay(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(`--relay: "${raw}" is not an absolute URL (like https://relay.example.com)`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
    fail('--relay: an origin only (https://relay.example.com), where a SERVE=relay process answers MONITORING_PATH');
  }
  return url.origin;
}
