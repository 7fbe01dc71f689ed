import type { Browser, BrowserContext, Page } from 'playwright-core';

export type Visit = { page: Page; context: BrowserContext; problems: string[]; dataRequests: string[] };

/**
 * Opens a page in a fresh context, records console errors/warnings, page errors
 * and page-data requests, and waits until React has hydrated.
 */
export async function visit(browser: Browser, url: string, options: { locale?: string; hydrate?: boolean } = {}): Promise<Visit> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  const dataRequests: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    // Chromium reports a document's own 404 status in the console; a not-found page is meant to have it.
    if (message.text().includes('status of 404') && message.location().url === page.url()) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (request.url().includes('/_data/')) dataRequests.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  await page.goto(url);
  if (options.hydrate !== false) await page.waitForSelector('html[data-hydrated]');
  return { page, context, problems, dataRequests };
}

/** Marks the window so a test can tell a client navigation (marker kept) from a document load (marker gone). */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { polysiteMarker: number }).polysiteMarker = 1));
}

export function hasMarker(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { polysiteMarker?: number }).polysiteMarker === 1);
}

/** Adds a link to the page's main element and returns its selector: for targets no page links to. */
export async function appendLink(page: Page, href: string): Promise<string> {
  await page.evaluate((target) => {
    const link = document.createElement('a');
    link.href = target;
    link.id = 'appended-link';
    link.textContent = target;
    document.querySelector('main')!.append(link);
  }, href);
  return '#appended-link';
}
