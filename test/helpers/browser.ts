import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * The browser for end-to-end tests: CHROMIUM_PATH, else Playwright's own
 * download (if one was installed), else a system Chromium. Never a silent skip.
 */
export function findChromium(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    safe(() => chromium.executablePath()),
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Set CHROMIUM_PATH to a Chromium or Chrome binary, ' +
        'or install one (Debian/Ubuntu: `apt-get install -y chromium`; elsewhere: `npx playwright install chromium`).',
    );
  }
  return found;
}

/**
 * The flags every Chromium of ours starts with (the browser tests' and the Lighthouse pass's):
 * no sandbox (containers), no GPU, and none of the background traffic of a fresh profile.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
}

function safe(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
