import { browserTracingIntegration, captureException, init } from '@sentry/browser';
import type { MonitoringInit } from '../routes/types.ts';

/**
 * The Sentry browser SDK (loaded lazily by reporting.ts). Envelopes go to the
 * same-origin relay (`tunnel`), never straight to Sentry: no third-party
 * request, no `sentry_key` in URLs for ad blockers to match. Page loads and
 * client navigations (history.pushState) become transactions with web vitals.
 */
export function startMonitoring(settings: MonitoringInit): (error: unknown) => void {
  init({
    dsn: settings.dsn,
    tunnel: settings.tunnel,
    environment: settings.environment,
    release: settings.release,
    tracesSampleRate: settings.tracesSampleRate,
    integrations: [browserTracingIntegration()],
  });
  return (error) => captureException(error);
}
