import type { SentryConfig } from './config.ts';

/**
 * @sentry/node for the server's own errors: render errors, failed requests and
 * unhandled rejections, sent straight to the DSN (never through our relay, so a
 * relay problem cannot feed on itself). Errors only: no tracing, so no
 * per-request instrumentation cost. Loaded only when SENTRY_DSN is set.
 */
let capture: ((error: unknown) => void) | null = null;
let flush: ((timeoutMs: number) => Promise<unknown>) | null = null;

export async function startServerMonitoring(sentry: SentryConfig, build: string): Promise<void> {
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: sentry.dsn,
    environment: sentry.environment,
    release: sentry.release ?? build,
    // No tracesSampleRate: tracing stays off. SDK 11 still continues a browser's
    // sampled trace (sentry-trace header) with server spans unless told otherwise,
    // which would cost a span per request and put request headers in them: no spans.
    // Nor sessions: every relay POST would count as one.
    integrations: (defaults) => [
      ...defaults.filter((integration) => integration.name !== 'Http'),
      Sentry.httpIntegration({ spans: false, sessions: false, maxRequestBodySize: 'none' }),
    ],
    // SDK 11 collects request bodies, cookies and headers by default: a relay request's
    // body is a visitor's envelope, and cookies and headers are theirs too. An error
    // report needs the stack and the URL path, nothing of the visitor.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    // No sentry-trace/baggage on outgoing requests: the relay's forwards carry only
    // the headers it builds itself.
    tracePropagationTargets: [],
  });
  capture = (error) => Sentry.captureException(error);
  flush = (timeoutMs) => Sentry.flush(timeoutMs);
}

/** Reports a server error if monitoring is on; a no-op otherwise. */
export function reportServerError(error: unknown): void {
  capture?.(error);
}

/** Sends what is still queued (on shutdown): at most `timeoutMs`, a no-op without monitoring. */
export async function flushServerMonitoring(timeoutMs: number): Promise<void> {
  await flush?.(timeoutMs);
}
