import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withServerAndBrowser } from '../helpers/e2e.ts';
import { makeLocales, makePage } from '../helpers/content.ts';
import { ROOT } from '../helpers/server.ts';
import { visit } from '../helpers/visit.ts';

const APP_ERROR = 'Application error: a client-side exception has occurred';

// A Spanish translator renamed the placeholder of "Next: {title}": the build's check is
// bypassed (this folder is compiled by the server at start-up), so only the run-time fallback stands.
const en = JSON.parse(readFileSync(join(ROOT, 'locales/en/messages.json'), 'utf8')) as Record<string, string>;
const PAGES = {
  'pages/index.md': makePage({ title: 'Home' }),
  'pages/docs/index.md': makePage({ title: 'Docs' }),
  'pages/docs/routing.md': makePage({ title: 'Routing', order: 1 }),
  'pages/docs/install.md': makePage({ title: 'Install', order: 2 }),
};
const locales = makeLocales({
  en: { 'messages.json': en, ...PAGES },
  es: { 'messages.json': { ...en, 'docs.next': 'Siguiente: {titulo}' }, ...PAGES },
});

const e2e = withServerAndBrowser({ LOCALES_DIR: locales, DEFAULT_LOCALE: 'en' });

test("a renamed placeholder shows the default locale's message, on the server and after hydration, reported once", async () => {
  const html = await (await fetch(`${e2e.server.url}/es/docs/routing`)).text();
  assert.match(html, /Next: Install/, "the server's page has the en message");
  assert.doesNotMatch(html, /titulo/);

  const { page, context, problems } = await visit(e2e.browser, `${e2e.server.url}/es/docs/routing`);
  assert.equal(await page.getByText(APP_ERROR).count(), 0, 'no failure screen');
  assert.equal(await page.getByText('Next: Install').count(), 1, 'the hydrated page shows the en message');
  // A client navigation to another page that formats the message: the same fallback, no new report.
  await page.click('a[href="/es/docs"]');
  await page.waitForURL(`${e2e.server.url}/es/docs`);
  await page.waitForSelector('text=Next: Routing');
  assert.equal(await page.getByText(APP_ERROR).count(), 0);
  // One warning (the browser's report), and no hydration mismatch or error.
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, /^warning: message "docs\.next" of locale "es" did not format \(.*titulo.*\)/);
  await context.close();

  const reports = e2e.server.lines.filter((line) => line.includes('did not format'));
  assert.equal(reports.length, 1, 'the server logs the failure once');
  assert.match(reports[0]!, /"key":"docs\.next"/);
});
