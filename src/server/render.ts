import { PassThrough, type Readable, Writable } from 'node:stream';
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
    // React writes into `inner`, which feeds `body` with backpressure and, once React
    // is done, adds the closing part and ends `body`. React writes a page in many
    // small chunks; `inner` starts corked for the turn of the event loop in which
    // React renders, so what it wrote by then leaves as one write (one syscall)
    // instead of one per chunk. Later chunks (after a Suspense boundary) pass as they come.
    const inner = new Writable({
      writev(chunks, callback) {
        // Strings and Uint8Arrays arrive as Buffers (decodeStrings).
        const bytes = chunks.length === 1 ? (chunks[0]!.chunk as Buffer) : Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer));
        if (body.write(bytes)) callback();
        else body.once('drain', () => callback());
      },
      final(callback) {
        body.end(shell.after);
        callback();
      },
    });
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
      inner.cork();
      inner.write(shell.before);
      pipe(inner);
      setImmediate(() => inner.uncork());
      resolve(body);
    }
  });
}
