import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * The built server and a Chromium for one test file: started before its tests,
 * stopped after them. Read `.server` and `.browser` inside the tests.
 */
export function withServerAndBrowser(env: Record<string, string> = {}): { server: RunningServer; browser: Browser } {
  const running = {} as { server: RunningServer; browser: Browser };
  before(async () => {
    [running.server, running.browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  after(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
}
