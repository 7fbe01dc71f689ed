import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import type { Middleware } from 'koa';
import { ConfigError, loadConfig, type Config, type SentryConfig } from './config.ts';
import { ContentError } from './content/errors.ts';
import { createLogger } from './http/log.ts';
import { runPrimary } from './http/cluster-primary.ts';
import type { Relay } from './monitoring/relay/index.ts';
import { serve, type Serving } from './http/serve.ts';
import { flushServerMonitoring, startServerMonitoring } from './monitoring/server-monitoring.ts';
import { prepareSite, type PreparedSite } from './site/prepare-site.ts';
import { readManifest } from './site/manifest.ts';

// Start-up: read the configuration, then either run the server here
// (WEB_CONCURRENCY=1) or become the primary of that many workers.
// Every mistake a user can make stops here with one line, not a stack.

/** Ends start-up with one line on stderr (no stack) and the given exit code. */
function fail(message: string, code = 1): never {
  process.stderr.write(`polysite: ${message}\n`);
  process.exit(code);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(`bad configuration: ${error.message}`);
  throw error;
}
const log = createLogger(undefined, config.logLevel);

if (cluster.isPrimary && config.webConcurrency > 1) {
  runPrimary(config, log);
} else {
  await startWorker(config);
}

async function startWorker(config: Config): Promise<void> {
  // SERVE=relay: no site to prepare (a static host serves it); the build, if there is one, names the release.
  let site: PreparedSite | undefined;
  let build: string | null = null;
  if (config.serve === 'site') {
    try {
      site = await prepareSite(config, log);
    } catch (error) {
      fail(`cannot start: ${(error as Error).message}`, error instanceof ContentError ? 1 : 2);
    }
    build = site.manifest.build;
    collectStartUpGarbage();
  } else {
    build = buildIfAny(config);
  }
  // With SENTRY_DSN, monitoring adds nothing before `listen`: the SDK loads right after
  // (server errors wait for it in server-monitoring.ts), the relay (undici) on the first
  // envelope a browser sends.
  const relay = config.sentry && relayOnFirstUse(config, config.sentry);
  let serving: Serving;
  try {
    serving = await serve(site ? { config, site, log, relay } : { config, log, relay, relayOnly: { build } });
  } catch (error) {
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  if (config.sentry) {
    // No request has run yet: `listen` answered, and we are still in its continuation.
    startServerMonitoring(config.sentry, build ?? 'relay').catch((error) =>
      log.error('server monitoring did not start', { error: error as Error }),
    );
  }
  const stop = (signal: string) => {
    serving
      .shutdown(signal)
      .then(() => flushServerMonitoring(2000))
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // In a cluster, the primary asks a worker to stop with a message (signals reach the whole group anyway).
  process.on('message', (message) => message === 'shutdown' && stop('primary'));
  // (With monitoring on, server-monitoring.ts reports them too.)
  process.on('unhandledRejection', (reason) =>
    log.error('unhandled rejection', { error: reason instanceof Error ? reason : String(reason) }),
  );
}

/**
 * The relay, mounted now and import()ed by the first envelope (~40 ms, ~9 MB for its
 * undici chunk): a site whose browsers send nothing never pays for it.
 */
function relayOnFirstUse(config: Config, sentry: SentryConfig) {
  let relay: Promise<Relay> | undefined;
  const load = async () => {
    // The relay's HTTP client (undici) parses responses with WebAssembly (llhttp). After
    // the first forward V8 re-compiles its big parser function with its optimizing tier:
    // 140 ms of CPU and a 29 MB peak, +25 MB of peak RSS, to parse a few short answers
    // a minute. Its baseline (Liftoff) code is plenty for that. V8 reads the flag when it
    // compiles WebAssembly, which nothing else here uses.
    setFlagsFromString('--liftoff-only');
    const { createRelay } = await import('./monitoring/relay/index.ts');
    return createRelay({ dsn: sentry.parsed, maxBytes: config.monitoring.maxBytes, clientIp: (ctx) => ctx.ip, log });
  };
  return {
    path: config.monitoring.path,
    middleware: (async (ctx, next) => {
      relay ??= load();
      return (await relay).middleware(ctx, next);
    }) satisfies Middleware,
    // Shutdown: nothing to close if it was never loaded.
    close: async () => {
      await (await relay?.catch(() => null))?.close();
    },
  };
}

/** The build id of dist/, when there is one: a relay-only process runs without the site. */
function buildIfAny(config: Config): string | null {
  try {
    return readManifest(config.distDir).build;
  } catch {
    return null;
  }
}

/**
 * One full collection between preparing the site and serving it. Start-up reads
 * the content snapshot, builds every path, the sitemap and the feeds, and leaves
 * garbage behind it: at 10,000 pages the heap holds about twice what is live, and
 * V8 keeps that memory until a full collection that may not come for a long time.
 * Collected once here (a few tens of ms, before the first request), an idle server
 * holds what it needs. Only where the command line exposes `gc` (`--expose-gc`, as
 * the Procfile, the Dockerfile and `npm start` do).
 */
function collectStartUpGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
