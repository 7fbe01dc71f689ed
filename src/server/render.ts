import { PassThrough, type Readable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

/**
 * Streams a document: `shell.before`, the React element, `shell.after`.
 * Resolves once the response can start: at React's shell for people, when
 * everything is ready for crawlers (they want the complete document). Rejects on
 * a shell error, before any byte is sent, so the caller can still answer 500. A
 * timer aborts a render that never finishes.
 * (After react-router's entry.server.node.tsx.)
 */
export function renderStream(
  element: ReactNode,
  shell: { before: string; after: string },
  options: { waitForAll: boolean; timeoutMs: number; onError: (error: unknown) => void },
): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    // React writes into `inner`, which feeds `body` (with backpressure) and, once
    // React is done, lets the closing part through before `body` ends.
    const inner = new PassThrough();
    inner.on('end', () => body.end(shell.after));
    let timer: NodeJS.Timeout | undefined;
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellReady() {
        if (!options.waitForAll) start();
      },
      onAllReady() {
        if (options.waitForAll) start();
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error) {
        options.onError(error);
      },
    });
    let aborted = false;
    const stop = (reason?: Error) => {
      if (aborted) return;
      aborted = true;
      abort(reason);
    };
    timer = setTimeout(() => stop(new Error(`render took longer than ${options.timeoutMs} ms`)), options.timeoutMs);
    // The stream ended: stop the timer. The client went away mid-render: let React stop too.
    body.on('close', () => {
      clearTimeout(timer);
      if (!body.writableFinished) {
        stop();
        inner.destroy();
      }
    });
    function start() {
      body.write(shell.before);
      inner.pipe(body, { end: false });
      pipe(inner);
      resolve(body);
    }
  });
}
