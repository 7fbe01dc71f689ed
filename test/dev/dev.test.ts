import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { get, rawRequest } from '../helpers/http.ts';
import { ROOT, startServer } from '../helpers/server.ts';
import { hasMarker, markWindow } from '../helpers/visit.ts';

/**
 * `npm run dev` as a developer uses it, in a throwaway copy of the project (so
 * the tests can break source files too): edit a page, a message and a screen,
 * see the change served and the open tab reload; break a file, see the overlay
 * with file and line; fix it, see the site again.
 */
let dev: ChildProcess;
let url = '';
/** What `npm run dev` printed when it started serving. */
let serving = '';
let project = '';
let browser: Browser;

before(async () => {
  project = mkdtempSync(join(tmpdir(), 'polysite-dev-'));
  for (const entry of ['src', 'scripts', 'locales', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  dev = spawn('npm', ['run', 'dev'], {
    cwd: project,
    // HOST empty: it must count as unset (loopback only), as in the production config.
    env: { ...withoutLocalesDir(process.env), PORT: '0', HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  dev.stderr!.resume();
  [url, browser] = await Promise.all([
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('npm run dev did not start in 60 s')), 60_000);
      createInterface({ input: dev.stdout! }).on('line', (line) => {
        const match = /serving (http:\/\/localhost:\d+)/.exec(line);
        if (match) {
          serving = line;
          clearTimeout(timer);
          resolve(match[1]!.replace('localhost', '127.0.0.1'));
        }
      });
    }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  if (dev?.pid) process.kill(-dev.pid, 'SIGKILL');
  rmSync(project, { recursive: true, force: true });
});

/**
 * How long a rebuild may take before a test gives up: a bound that ends a hung run, not a
 * figure asserted (`npm run bench -- --only dev` measures it). A rebuild of src/ runs
 * esbuild and restarts the server, which on a busy CI host takes many times its usual second.
 */
const REBUILD_WAIT_MS = 60_000;

/** Polls until `check` passes on the page's HTML; a request the dev server holds through a long rebuild is asked again. */
async function eventually(path: string, check: (body: string, status: number) => boolean, ms = REBUILD_WAIT_MS): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    const response = await get(url, path).catch((error: Error) => ({ status: 0, body: error.message }));
    last = response.body;
    if (check(response.body, response.status)) return response.body;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`not seen within ${ms} ms; last body began: ${last.slice(0, 300)}`);
}

const read = (file: string) => readFileSync(join(project, file), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(project, file), text);
const edit = (file: string, change: (text: string) => string) => write(file, change(read(file)));

/** Breaks `file` with `change`, expects the overlay to match `shows`, restores the file and expects the site back. */
async function breakAndFix(file: string, path: string, change: (text: string) => string, shows: RegExp) {
  const original = read(file);
  const changed = change(original);
  assert.notEqual(changed, original, 'the change applies');
  write(file, changed);
  const overlay = await eventually(path, (body, status) => status === 500 && body.includes('polysite-dev-overlay'));
  assert.match(overlay, shows);
  write(file, original);
  await eventually(path, (body, status) => status === 200 && !body.includes('polysite-dev-overlay'));
}

test('an empty HOST is unset: the dev server listens on loopback only', () => {
  assert.match(serving, /listening on 127\.0\.0\.1;/);
});

test('the dev server answers only requests addressed to this machine by name', async () => {
  const port = new URL(url).port;
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
    assert.equal((await get(url, '/en', { Host: host })).status, 200, host);
  }
  // What a DNS-rebinding page makes the browser send: its own name.
  for (const host of [`attacker.example:${port}`, 'attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', 'a@localhost']) {
    for (const path of ['/en', '/__polysite_dev/events', '/__polysite_dev/client.js']) {
      const response = await get(url, path, { Host: host });
      assert.equal(response.status, 421, `${host} ${path}`);
      assert.doesNotMatch(response.body, /<html|polysite-dev-overlay|EventSource/);
    }
  }
  assert.match(await rawRequest(url, 'GET /en HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 421 /, 'no Host at all');
});

test('/_translations shows each locale’s translation status, each row linking to the page in both languages', async () => {
  const { status, body } = await get(url, '/_translations');
  assert.equal(status, 200);
  // The default site's de docs/routing is deliberately behind en; fr's is up to date.
  const row = (locale: string) =>
    new RegExp(`<tr class="([a-z-]+)"><td><code>docs/routing</code></td><td>[^<]*</td><td><a href="/${locale}/docs/routing">`);
  assert.equal(row('de').exec(body)?.[1], 'outdated');
  assert.equal(row('fr').exec(body)?.[1], 'up-to-date');
  assert.match(body, /<a href="\/en\/docs\/routing">/);
  assert.match(body, /<section id="ja"><h2>ja: [^<]*1 missing/);
});

test('an edited Markdown page is served within a few seconds', async () => {
  await eventually('/en/about', (body, status) => status === 200 && body.includes('__polysite_dev/client.js'));
  edit('locales/en/pages/about.md', (text) => text.replace(/^title: .*$/m, 'title: "About, edited live"'));
  await eventually('/en/about', (body) => body.includes('About, edited live</h1>'));
});

test('an open tab shows an edited page in place, and reloads by itself for an edited message', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/fr/a-propos`);
  await page.waitForSelector('html[data-hydrated]');
  await markWindow(page);
  edit('locales/fr/pages/about.md', (text) => text.replace(/^title: .*$/m, 'title: "À propos, modifié"'));
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'À propos, modifié', null, { timeout: REBUILD_WAIT_MS });
  assert.equal(await hasMarker(page), true, 'the page was updated in place, not loaded again');
  edit('locales/fr/messages.json', (text) => text.replace(/"nav.blog": "[^"]*"/, '"nav.blog": "Carnet modifié"'));
  await page.waitForFunction(() => [...document.querySelectorAll('a')].some((a) => a.textContent === 'Carnet modifié'), null, {
    timeout: REBUILD_WAIT_MS,
  });
  assert.equal(await hasMarker(page), false, 'the tab was reloaded: the messages are part of the document it loaded');
  await context.close();
});

// After the in-place test: a message edit reloads every open tab, and a save may reach the
// watcher as two events (truncate, then write) far enough apart on a loaded host to make two
// reloads: a tab the next test opened between them was reloaded by the second.
test('an edited message is served within a few seconds', async () => {
  edit('locales/de/messages.json', (text) => text.replace(/"nav.blog": "[^"]*"/, '"nav.blog": "Neuigkeiten"'));
  await eventually('/de', (body) => body.includes('>Neuigkeiten</a>'));
});

test('a change to a screen in src/ is rebuilt and served', async () => {
  const file = 'src/routes/screens/not-found.tsx';
  const original = read(file);
  write(file, original.replace('className="not-found"', 'className="not-found" data-edited="yes"'));
  try {
    await eventually('/en/nope', (body, status) => status === 404 && body.includes('data-edited="yes"'));
  } finally {
    write(file, original);
  }
  await eventually('/en/nope', (body, status) => status === 404 && !body.includes('data-edited'));
});

test('an image added under locales/<locale>/images/ is built into the assets and served', async () => {
  mkdirSync(join(project, 'locales/en/images'), { recursive: true });
  copyFileSync(join(ROOT, 'test/scripts/fixtures/tiny.png'), join(project, 'locales/en/images/added.png'));
  const manifest = join(project, '.dev/manifest.json');
  const deadline = Date.now() + REBUILD_WAIT_MS;
  let image: { path: string; width: number; height: number } | undefined;
  while (!image && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    image = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).images?.['en/images/added.png'] : undefined;
  }
  assert.ok(image, 'en/images/added.png in the dev manifest');
  assert.deepEqual([image.width, image.height], [17, 9]);
  await eventually(image.path, (_body, status) => status === 200);
  assert.equal((await get(url, image.path)).headers['content-type'], 'image/png');
});

test('broken front matter shows an overlay with file and line, and fixing the file removes it', async () => {
  await breakAndFix(
    'locales/fr/pages/about.md',
    '/fr/a-propos',
    (text) => text.replace(/^---\n/, ''),
    /fr\/pages\/about\.md:1: missing front matter/,
  );
});

test('a message that does not parse shows the overlay naming the file and key', async () => {
  await breakAndFix(
    'locales/ja/messages.json',
    '/ja',
    (text) => text.replace(/"nav.home": "[^"]*"/, '"nav.home": "{broken"'),
    /ja\/messages\.json:\d+:\d+: message &quot;nav\.home&quot; does not parse: an argument is not closed/,
  );
});

test('a broken internal link shows the overlay with the file and line of the link', async () => {
  await breakAndFix(
    'locales/de/pages/about.md',
    '/de/ueber-uns',
    (text) => `${text}\n\n[Nirgendwo](/docs/does-not-exist)\n`,
    /de\/pages\/about\.md:\d+: .*\/docs\/does-not-exist/,
  );
});

test('a TypeScript syntax error shows the overlay with file, line and column', async () => {
  await breakAndFix(
    'src/routes/screens/not-found.tsx',
    '/en',
    (text) => text.replace('export function', 'export function function'),
    /src\/routes\/screens\/not-found\.tsx:\d+:\d+: /,
  );
});

test("a syntax error in the browser's code alone shows the overlay, and its fix serves the site", async () => {
  await breakAndFix('src/client/main.tsx', '/en', (text) => `${text}\nexport const broken = ;\n`, /src\/client\/main\.tsx:\d+:\d+: /);
});

test('the dev-only reload endpoint does not exist in the production build', async () => {
  const production = await startServer();
  try {
    const events = await get(production.url, '/__polysite_dev/events');
    assert.notEqual(events.status, 200);
    assert.doesNotMatch((await get(production.url, '/en')).body, /__polysite_dev/);
    const bundle = readFileSync(join(ROOT, 'dist', 'server', 'main.js'), 'utf8');
    assert.doesNotMatch(bundle, /__polysite_dev/);
  } finally {
    await production.stop();
  }
});

function withoutLocalesDir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { LOCALES_DIR: _ignored, ...rest } = env;
  return rest;
}
