// A worker thread running a TypeScript module of the build: its compiled entry when the
// build runs compiled (compiled-build.mjs); else under tsx, whose loader a worker does not
// inherit: the worker registers it first.
import { Worker } from 'node:worker_threads';

/** A worker given one job, some time after it was started. */
export type JobWorker = {
  /** Posts the job and waits for its one answer, or rejects with the worker's error or early end. */
  ask<T>(job: unknown): Promise<T>;
  terminate(): Promise<number>;
};

/**
 * Starts the worker now, so it boots (about a second under tsx) while the caller reads
 * what its job needs. Until then it does not keep the process alive, and an error or an
 * exit while it boots is kept for `ask` to reject with: an 'error' event without a
 * listener would end the build with a stack, and an exit before `ask` listens would
 * leave it waiting for good.
 */
export function startWorker(moduleUrl: string): JobWorker {
  const worker = tsWorker(moduleUrl);
  worker.unref();
  let ended: Error | undefined;
  const early = (error: Error) => {
    ended ??= error;
  };
  const exitedEarly = (code: number) => early(new Error(`a build worker exited with code ${code} before it was given its job`));
  worker.once('error', early);
  worker.once('exit', exitedEarly);
  return {
    ask<T>(job: unknown) {
      worker.off('error', early).off('exit', exitedEarly);
      if (ended) return Promise.reject(ended);
      worker.ref();
      return ask<T>(worker, job);
    },
    terminate: () => worker.terminate(),
  };
}

/**
 * The worker: `npm run build`'s compiled entry for the module where its launcher named one
 * (POLYSITE_BUILD_WORKERS: compiled-build.mjs), else the TypeScript module under tsx.
 */
function tsWorker(moduleUrl: string): Worker {
  const compiled = compiledWorkers()[moduleUrl];
  if (compiled) return new Worker(new URL(compiled));
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); });`;
  return new Worker(boot, { eval: true });
}

/** Posts one job and waits for its one answer (or the worker's error). */
function ask<T>(worker: Worker, job: unknown): Promise<T> {
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

function compiledWorkers(): Record<string, string> {
  try {
    return JSON.parse(process.env.POLYSITE_BUILD_WORKERS ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
