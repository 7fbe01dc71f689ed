import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorker } from '../../scripts/ts-worker.ts';

// The build starts its workers before it reads what their jobs need; one that fails in
// that time must fail the build with its error, not crash it with a stack or leave it waiting.

const FIXTURE = new URL('./fixtures/failing-worker.ts', import.meta.url).href;

/** Starts the fixture worker and waits until it has ended (its marker, then a moment for the event). */
async function endedWorker(end: 'throw' | 'exit') {
  const marker = join(mkdtempSync(join(tmpdir(), 'polysite-worker-')), 'marker');
  process.env.FAILING_WORKER_MARKER = marker;
  process.env.FAILING_WORKER_END = end;
  const worker = startWorker(FIXTURE);
  delete process.env.FAILING_WORKER_MARKER;
  delete process.env.FAILING_WORKER_END;
  for (let waited = 0; !existsSync(marker); waited += 20) {
    assert.ok(waited < 20_000, 'the worker booted');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return worker;
}

test('a worker that throws while it boots makes its job reject with that error', async () => {
  const worker = await endedWorker('throw');
  await assert.rejects(worker.ask({}), /the worker module failed to load/);
  await worker.terminate();
});

test('a worker that exits while it boots makes its job reject, naming the exit code', async () => {
  const worker = await endedWorker('exit');
  await assert.rejects(worker.ask({}), /exited with code 3 before it was given its job/);
  await worker.terminate();
});

test('a module the compiled build names runs as its compiled entry, without a TypeScript loader', async () => {
  // The TypeScript module does not exist: had the worker booted tsx to import it, its job would reject.
  const source = new URL('./fixtures/not-compiled-here.ts', import.meta.url).href;
  const compiled = new URL('./fixtures/compiled-worker.mjs', import.meta.url).href;
  process.env.POLYSITE_BUILD_WORKERS = JSON.stringify({ [source]: compiled });
  try {
    const worker = startWorker(source);
    assert.deepEqual(await worker.ask({}), { ran: 'compiled', loaders: process.execArgv });
    await worker.terminate();
  } finally {
    delete process.env.POLYSITE_BUILD_WORKERS;
  }
});
