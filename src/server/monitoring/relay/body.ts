import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { kind: 'body'; bytes: Buffer }
  | { kind: 'tooLarge' }
  | { kind: 'overBudget' }
  /** The budget took its bytes back to make room for others (budget.ts): a slow body under pressure. */
  | { kind: 'cut' }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

type Options = {
  maxBytes: number;
  /** Whole-body deadline: a client dripping one byte a second is as stuck as a silent one. */
  timeoutMs: number;
  /**
   * Longest wait for the next byte. A browser's upload does not pause for seconds;
   * a client that declares a length and then sends nothing is holding a slot open.
   */
  idleTimeoutMs: number;
  /** Asks the shared buffer budget to cover this many bytes in total; false means it cannot. */
  reserve: (total: number) => boolean;
  /** Aborted when the budget cuts this body: stop reading at once. */
  cut?: AbortSignal;
};

/**
 * Reads the request body as raw bytes, never decoded: replay and attachment
 * items are binary, and a text round-trip breaks them (getsentry/sentry#45184).
 * Memory is reserved chunk by chunk as it arrives, never from the declared length.
 * Stops reading at the first byte past the cap, the budget, the deadline or the
 * idle time, or when the budget cuts it, and leaves the rest unread; the caller
 * answers with `Connection: close`.
 */
export function readBody(req: IncomingMessage, { maxBytes, timeoutMs, idleTimeoutMs, reserve, cut }: Options): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (result: BodyResult) => {
      clearTimeout(deadline);
      clearTimeout(idle);
      req.off('data', onData).off('end', onEnd).off('error', onAborted).off('close', onAborted);
      cut?.removeEventListener('abort', onCut);
      // The bytes read so far are the budget's no longer (a cut took them back): let them go.
      if (result.kind !== 'body') chunks.length = 0;
      // Unread bytes stay unread: pausing keeps Node from draining them into memory we refused.
      if (result.kind !== 'body') req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return finish({ kind: 'tooLarge' });
      if (!reserve(received)) return finish({ kind: 'overBudget' });
      chunks.push(chunk);
      idle.refresh();
    };
    const onEnd = () => finish({ kind: 'body', bytes: Buffer.concat(chunks, received) });
    // 'close' before 'end': the client went away mid-body.
    const onAborted = () => finish({ kind: 'aborted' });
    const onCut = () => finish({ kind: 'cut' });
    const deadline = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    const idle = setTimeout(() => finish({ kind: 'timeout' }), Math.min(idleTimeoutMs, timeoutMs));

    req.on('data', onData).on('end', onEnd).on('error', onAborted).on('close', onAborted);
    cut?.addEventListener('abort', onCut, { once: true });
  });
}
