import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { ContentError } from './content/errors.ts';
import { createLogger } from './log.ts';
import { runPrimary } from './cluster-primary.ts';
import { serve, type Serving } from './serve.ts';
import { flushServerMonitoring, startServerMonitoring } from './server-monitoring.ts';
import { prepareSite, type PreparedSite } from './prepare-site.ts';

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
  let runtime: PreparedSite;
  try {
    runtime = await prepareSite(config);
  } catch (error) {
    fail(`cannot start: ${(error as Error).message}`, error instanceof ContentError ? 1 : 2);
  }
  let relay = null;
  if (config.sentry) {
    // Loaded only with a DSN: the relay brings undici, which a site without monitoring never needs.
    const { createRelay } = await import('./relay/index.ts');
    relay = createRelay({ dsn: config.sentry.parsed, maxBytes: config.monitoring.maxBytes, clientIp: (ctx) => ctx.ip, log });
    await startServerMonitoring(config.sentry, runtime.manifest.build);
  }
  let serving: Serving;
  try {
    serving = await serve({ config, runtime, log, relay: relay && { path: config.monitoring.path, ...relay } });
  } catch (error) {
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
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
  // (@sentry/node, when on, reports these itself through its own integration.)
  process.on('unhandledRejection', (reason) =>
    log.error('unhandled rejection', { error: reason instanceof Error ? reason : String(reason) }),
  );
}
