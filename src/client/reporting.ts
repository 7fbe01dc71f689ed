import type { MonitoringInit } from '../routes/types.ts';

// Error reporting that costs nothing on the critical path: errors are queued
// from the first moment (hydration included), and the Sentry SDK, a separate
// chunk, is loaded once the page is idle; it then sends the queue. Without
// SENTRY_DSN the chunk is never requested.

/** The SDK's capture, once it has loaded; until then errors wait in `queue`. */
let send: ((error: unknown) => void) | null = null;
const queue: unknown[] = [];

export function reportError(error: unknown): void {
  if (send) send(error);
  else if (queue.length < 20) queue.push(error);
}

const onWindowError = (event: ErrorEvent) => reportError(event.error ?? event.message);
const onRejection = (event: PromiseRejectionEvent) => reportError(event.reason);

export function startReporting(monitoring: MonitoringInit | undefined): void {
  if (!monitoring) return;
  // Until the SDK is here, we catch what it would; then its own handlers take over.
  addEventListener('error', onWindowError);
  addEventListener('unhandledrejection', onRejection);
  const load = () =>
    import('./monitoring.ts').then(({ startMonitoring }) => {
      removeEventListener('error', onWindowError);
      removeEventListener('unhandledrejection', onRejection);
      send = startMonitoring(monitoring);
      for (const error of queue.splice(0)) send(error);
    });
  // Safari has no requestIdleCallback.
  const whenIdle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(() => void load(), { timeout: 2000 }) : setTimeout(load, 1);
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
