// A worker thread running a TypeScript module of the build. The build runs under
// tsx, whose loader a worker does not inherit: the worker registers it first.
import { Worker } from 'node:worker_threads';

export function tsWorker(moduleUrl: string): Worker {
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); });`;
  return new Worker(boot, { eval: true });
}

/** Posts one job and waits for its one answer (or the worker's error). */
export function ask<T>(worker: Worker, job: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      worker.off('message', answered).off('error', failed).off('exit', exited);
      reject(error);
    };
    // A worker that ends without answering (killed, out of memory) must not leave the build waiting.
    const exited = (code: number) => failed(new Error(`a build worker exited with code ${code} before it answered`));
    const answered = (answer: T) => {
      worker.off('error', failed).off('exit', exited);
      resolve(answer);
    };
    worker.once('message', answered);
    worker.once('error', failed);
    worker.once('exit', exited);
    worker.postMessage(job);
  });
}
