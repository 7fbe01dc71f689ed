import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.ts';
import type { Logger } from './log.ts';

// The cluster primary (WEB_CONCURRENCY > 1): forks the workers and keeps them running.

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 30_000;
const STABLE_AFTER_MS = 30_000;

/**
 * Keeps WEB_CONCURRENCY workers running. A worker that dies is replaced after a
 * back-off that doubles while workers keep dying soon after start (a crash loop
 * must not spin), and resets once one stays up. SIGTERM/SIGINT are passed on;
 * the primary exits when every worker has.
 */
export function runPrimary(config: Config, log: Logger): void {
  let stopping = false;
  let backoff = MIN_BACKOFF_MS;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('all workers stopped');
        process.exit(0);
      }
      return;
    }
    backoff = lived > STABLE_AFTER_MS ? MIN_BACKOFF_MS : Math.min(backoff * 2, MAX_BACKOFF_MS);
    log.warn('worker died, replacing it', { pid: worker.process.pid, code, signal, inMs: backoff });
    setTimeout(() => !stopping && fork(), backoff);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping workers', { signal });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send('shutdown');
    // A worker that ignores us is ended after its grace period and a margin.
    setTimeout(() => process.exit(0), config.shutdownGraceMs + 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info('primary started', { workers: config.webConcurrency, pid: process.pid });
  for (let i = 0; i < config.webConcurrency; i++) fork();
}
