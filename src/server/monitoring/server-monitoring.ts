import type { SentryConfig } from '../config.ts';
import type { Report, SentryClient } from './sentry-client.ts';

/**
 * The server's own errors (failed requests, render errors, unhandled rejections,
 * uncaught exceptions), sent straight to the DSN (never through our relay, so a
 * relay problem cannot feed on itself) by the Sentry SDK in sentry-client.ts.
 * Nothing of it runs per request: reporting is a function call on the error path,
 * and the SDK is loaded only with SENTRY_DSN, after the server listens. Reports
 * made before it is ready wait in a queue and are sent once it is.
 */
let client: SentryClient | null = null;
let queue: Report[] | null = null;
let ready: Promise<void> | null = null;

/** Reports beyond this many while the SDK loads are the same failure repeating: dropped. */
const QUEUE_LIMIT = 100;

/**
 * From this call on every report is kept; the SDK itself is import()ed now and the
 * promise settles once it is ready (or failed to load: then reports are dropped).
 * main.ts calls it right after `listen`, before any request can have run.
 */
export function startServerMonitoring(sentry: SentryConfig, build: string): Promise<void> {
  if (ready) return ready;
  queue = [];
  process.on('unhandledRejection', (reason) => reportServerError(reason, undefined, 'onunhandledrejection'));
  process.on('uncaughtException', crash);
  ready = import('./sentry-client.ts')
    .then(({ createSentryClient }) => {
      client = createSentryClient(sentry, build);
      for (const report of queue ?? []) client.capture(report);
    })
    .finally(() => {
      queue = null;
    });
  return ready;
}

/** Reports a server error if monitoring is on (queued until the SDK is ready); a no-op otherwise. */
export function reportServerError(error: unknown, request?: Report['request'], unhandled?: Report['unhandled']): void {
  const report = { error, request, unhandled };
  if (client) client.capture(report);
  else if (queue && queue.length < QUEUE_LIMIT) queue.push(report);
}

/** Sends what is still queued (on shutdown): at most `timeoutMs`, a no-op without monitoring. */
export async function flushServerMonitoring(timeoutMs: number): Promise<void> {
  if (!ready) return;
  const deadline = Date.now() + timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([ready.catch(() => {}), timeout]);
  clearTimeout(timer);
  await client?.flush(Math.max(0, deadline - Date.now()));
}

/**
 * What Node does with an uncaught exception (print it, exit 1), with the report
 * sent first: the process is in an unknown state, so it does not go on serving.
 */
function crash(error: Error): void {
  process.stderr.write(`${error?.stack ?? String(error)}\n`);
  reportServerError(error, undefined, 'onuncaughtexception');
  flushServerMonitoring(2000).finally(() => process.exit(1));
}
