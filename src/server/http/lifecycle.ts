import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';

/**
 * The process's serving state: how many requests are in flight, and whether we
 * are draining after SIGTERM. While draining, requests that still arrive on an
 * open keep-alive connection get a clean 503 with `Connection: close` rather
 * than a reset, and responses in flight close their connection when done.
 */
export class Lifecycle {
  #inFlight = 0;
  #draining = false;
  #idle: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  drain(): void {
    this.#draining = true;
  }

  /** Resolves when no request is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Counts a response in flight until it is fully written, not just until the code
   * answering it returns (a streamed page, or a large one to a slow reader, is still
   * being written after that).
   */
  track(res: ServerResponse): void {
    this.#inFlight++;
    res.once('close', () => {
      this.#inFlight--;
      if (this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
    });
  }

  /**
   * For an answer already ended: counts it only if some of it is still buffered (in
   * the response or its socket), not yet taken by the kernel. Most cached answers are
   * one write the kernel takes at once, and then there is nothing left in flight to
   * wait for, nor a listener to keep until 'close'. Not `writableFinished`: Node 24
   * sets it only when 'finish' is emitted, after this returns.
   */
  trackUnlessWritten(res: ServerResponse): void {
    if (!res.writableEnded || res.writableLength > 0) this.track(res);
  }

  middleware(): Middleware {
    return async (ctx, next) => {
      if (this.#draining) {
        ctx.set('Connection', 'close');
        // /healthz answers 503 itself while draining; everything else is refused here.
        if (ctx.path !== '/healthz') {
          ctx.status = 503;
          ctx.set('Retry-After', '5');
          ctx.set('Cache-Control', 'no-store');
          ctx.body = 'Server is restarting, please retry.';
          return;
        }
      }
      this.track(ctx.res);
      await next();
      if (this.#draining && !ctx.headerSent) ctx.set('Connection', 'close');
    };
  }
}
