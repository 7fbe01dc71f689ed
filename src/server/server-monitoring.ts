import type { SentryConfig } from './config.ts';

/**
 * @sentry/node for the server's own errors: render errors, failed requests and
 * unhandled rejections, sent straight to the DSN (never through our relay, so a
 * relay problem cannot feed on itself). Errors only: no tracing, so no
 * per-request instrumentation cost. Loaded only when SENTRY_DSN is set.
 */
let capture: ((error: unknown) => void) | null = null;

export async function startServerMonitoring(sentry: SentryConfig, build: string): Promise<void> {
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: sentry.dsn,
    environment: sentry.environment,
    release: sentry.release ?? build,
    // No tracesSampleRate: tracing stays off.
  });
  capture = (error) => Sentry.captureException(error);
}

/** Reports a server error if monitoring is on; a no-op otherwise. */
export function reportServerError(error: unknown): void {
  capture?.(error);
}
