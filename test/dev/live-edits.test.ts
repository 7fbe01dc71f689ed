import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { type DevProject, RELOAD_WAIT_MS, startDevProject } from './dev-project.ts';

/**
 * `npm run dev` never misses an edit: files saved the way editors and `sed -i` save
 * them (a new file renamed over the old), new folders and deleted pages, each seen
 * in the open tab or over HTTP, with a bounded wait and no timing asserted.
 */
let dev: DevProject;
let browser: Browser;

before(async () => {
  [dev, browser] = await Promise.all([startDevProject(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  dev?.stop();
});

/** Opens `path` in a fresh tab, hydrated. */
async function open(path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(dev.url + path);
  await page.waitForSelector('html[data-hydrated]');
  return page;
}

const WAIT = { timeout: RELOAD_WAIT_MS };

test('the banner names the translation status page', () => {
  assert.ok(
    dev.lines.some((line) => /http:\/\/localhost:\d+\/_translations/.test(line)),
    dev.lines.join('\n'),
  );
});

test('a Markdown page saved atomically three times in a row shows each version in the open tab', async () => {
  const page = await open('/en/about');
  const original = dev.read('locales/en/pages/about.md');
  for (const version of [1, 2, 3]) {
    const printed = dev.lines.length;
    dev.saveAtomically('locales/en/pages/about.md', original.replace(/^title: .*$/m, `title: "About, version ${version}"`));
    await page.waitForFunction((text) => document.querySelector('h1')?.textContent === text, `About, version ${version}`, WAIT);
    // Reloaded in the running server, not by starting another.
    assert.ok(dev.lines.slice(printed).some((line) => /reloaded in/.test(line)));
    assert.ok(!dev.lines.slice(printed).some((line) => /restarted in|rebuilt in/.test(line)));
  }
  await page.context().close();
});

test('a page saved again within 50 ms of its first save being seen shows the second version, not the first', async () => {
  const page = await open('/en/about');
  const file = 'locales/en/pages/about.md';
  const original = dev.read(file);
  const printed = dev.lines.length;
  dev.saveAtomically(file, original.replace(/^title: .*$/m, 'title: "About, first save"'));
  // The moment the server reports the first save, the second: inside chokidar's throttle of
  // one change per file per 50 ms, which would drop it.
  const deadline = Date.now() + RELOAD_WAIT_MS;
  while (!dev.lines.slice(printed).some((line) => /about\.md changed/.test(line)) && Date.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
  dev.saveAtomically(file, original.replace(/^title: .*$/m, 'title: "About, second save"'));
  await page.waitForFunction((text) => document.querySelector('h1')?.textContent === text, 'About, second save', WAIT);
  dev.saveAtomically(file, original);
  await page.waitForFunction(() => !document.querySelector('h1')?.textContent?.includes('save'), null, WAIT);
  await page.context().close();
});

test('a Markdown save updates the open tab in place: the document is not loaded again, and its title and scroll follow', async () => {
  const page = await open('/en/docs/routing');
  const file = 'locales/en/pages/docs/routing.md';
  const original = dev.read(file);
  // Marks this document: a reload would make another, without the mark.
  await page.evaluate(() => {
    (window as { kept?: boolean }).kept = true;
    scrollTo(0, 200);
  });
  for (const version of [1, 2]) {
    dev.saveAtomically(file, original.replace(/^title: .*$/m, `title: "Routing, in place ${version}"`));
    await page.waitForFunction((text) => document.querySelector('h1')?.textContent === text, `Routing, in place ${version}`, WAIT);
    assert.equal(await page.evaluate(() => (window as { kept?: boolean }).kept), true, 'the same document');
    await page.waitForFunction((text) => document.title.includes(text), `Routing, in place ${version}`, WAIT);
    assert.equal(await page.evaluate(() => scrollY), 200);
  }
  dev.saveAtomically(file, original);
  await page.waitForFunction(() => !document.querySelector('h1')?.textContent?.includes('in place'), null, WAIT);
  await page.context().close();
});

test('after a tab was updated in place, going back and forth shows each page as last saved, never as the tab first fetched it', async () => {
  const page = await open('/en/about');
  const file = 'locales/en/pages/about.md';
  const original = dev.read(file);
  // About's data fetched once by a client navigation (the navigator keeps it), then edited.
  await page.click('a[href="/en/blog"]');
  await page.waitForURL(/\/en\/blog$/, WAIT);
  await page.goBack();
  await page.waitForFunction(() => location.pathname === '/en/about' && document.querySelector('h1')?.textContent !== '', null, WAIT);
  dev.saveAtomically(file, original.replace(/^title: .*$/m, 'title: "About, saved after"'));
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About, saved after', null, WAIT);
  await page.goForward();
  await page.waitForURL(/\/en\/blog$/, WAIT);
  await page.waitForSelector('html[data-hydrated]', WAIT);
  await page.waitForFunction(() => document.querySelector('h1')?.textContent !== 'About, saved after', null, WAIT);
  const blogTitle = await page.textContent('h1');
  await page.goBack();
  await page.waitForURL(/\/en\/about$/, WAIT);
  await page.waitForSelector('html[data-hydrated]', WAIT);
  // The address changes before the page is drawn: the first About drawn must be the one last saved.
  await page.waitForFunction((title) => document.querySelector('h1')?.textContent !== title, blogTitle, WAIT);
  assert.equal(await page.textContent('h1'), 'About, saved after');
  dev.saveAtomically(file, original);
  await page.waitForFunction(() => document.querySelector('h1')?.textContent !== 'About, saved after', null, WAIT);
  await page.context().close();
});

test("a tab updated in place searches the edited page's new text: the index it names sends on to the index as it is now", async () => {
  const page = await open('/en/about');
  const file = 'locales/en/pages/about.md';
  const original = dev.read(file);
  const named = await page.evaluate(() => JSON.parse(document.getElementById('polysite-data')!.textContent!).search.en as string);
  dev.saveAtomically(file, original.replace(/^title: .*$/m, 'title: "About Quetzalcoatlish"'));
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'About Quetzalcoatlish', null, WAIT);
  const index = await page.evaluate(async (url) => {
    const answer = await fetch(url);
    return { status: answer.status, url: answer.url, text: await answer.text() };
  }, named);
  assert.equal(index.status, 200);
  assert.notEqual(new URL(index.url).pathname, named);
  assert.match(index.text, /About Quetzalcoatlish/);
  dev.saveAtomically(file, original);
  await page.waitForFunction(() => document.querySelector('h1')?.textContent !== 'About Quetzalcoatlish', null, WAIT);
  await page.context().close();
});

test('messages.json saved atomically three times in a row shows each version in the open tab', async () => {
  const page = await open('/de');
  const original = dev.read('locales/de/messages.json');
  for (const version of [1, 2, 3]) {
    const text = `Neuigkeiten ${version}`;
    dev.saveAtomically('locales/de/messages.json', original.replace(/"nav.blog": "[^"]*"/, `"nav.blog": "${text}"`));
    await page.waitForFunction((text) => [...document.querySelectorAll('a')].some((a) => a.textContent === text), text, WAIT);
  }
  await page.context().close();
});

test('a page added in a new folder is served, and saved again atomically, served again', async () => {
  mkdirSync(join(dev.project, 'locales/en/pages/new-folder/deeper'), { recursive: true });
  const file = 'locales/en/pages/new-folder/deeper/fresh.md';
  dev.saveAtomically(file, '---\ntitle: "A fresh page"\ndescription: "Added while the dev server runs."\n---\n\nHello.\n');
  await dev.eventually('/en/new-folder/deeper/fresh', (body, status) => status === 200 && body.includes('A fresh page</h1>'));
  const page = await open('/en/new-folder/deeper/fresh');
  dev.saveAtomically(file, '---\ntitle: "A fresher page"\ndescription: "Added while the dev server runs."\n---\n\nHello.\n');
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'A fresher page', null, WAIT);
  await page.context().close();
});

test('a deleted page becomes a 404', async () => {
  const file = 'locales/en/pages/short-lived.md';
  dev.saveAtomically(file, '---\ntitle: "Short-lived"\ndescription: "Deleted soon."\n---\n\nBye.\n');
  await dev.eventually('/en/short-lived', (body, status) => status === 200 && body.includes('Short-lived</h1>'));
  rmSync(join(dev.project, file));
  await dev.eventually('/en/short-lived', (_body, status) => status === 404);
});

test('canonical, hreflang and og:url name the address the author opened, not the inner server', async () => {
  const port = new URL(dev.url).port;
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
    const { body } = await get(dev.url, '/de/ueber-uns', { Host: host });
    assert.match(body, new RegExp(`<link rel="canonical" href="http://${host}/de/ueber-uns">`));
    assert.match(body, new RegExp(`<link rel="alternate" hreflang="en" href="http://${host}/en/about">`));
    assert.match(body, new RegExp(`<meta property="og:url" content="http://${host}/de/ueber-uns">`));
    const addresses = [...body.matchAll(/https?:\/\/[^/"'\s<>]+/g)]
      .map(([address]) => address)
      .filter((a) => /localhost|127\.0\.0\.1|invalid/.test(a));
    assert.deepEqual([...new Set(addresses)], [`http://${host}`]);
  }
});

test("a page's content-hashed scripts, styles and messages keep their cache headers, so a reload takes them from the cache; the page itself is never cached", async () => {
  const page = await get(dev.url, '/en/about');
  assert.match(String(page.headers['cache-control']), /no-store/);
  const assets = [...new Set([...page.body.matchAll(/\/assets\/[\w.-]+\.(?:json|js|css)(?=[^\w.-])/g)].map(([path]) => path))];
  assert.ok(
    ['.js', '.css'].every((ext) => assets.some((path) => path.endsWith(ext))),
    assets.join(' '),
  );
  for (const path of assets) {
    const asset = await get(dev.url, path);
    assert.equal(asset.status, 200, path);
    assert.match(String(asset.headers['cache-control']), /immutable/, path);
  }
});

test("a page's new title shows in the sidebar of the other pages", async () => {
  const file = 'locales/en/pages/docs/routing.md';
  const original = dev.read(file);
  dev.saveAtomically(file, original.replace(/^title: .*$/m, 'title: Routing, renamed'));
  await dev.eventually('/en/docs/markdown', (body, status) => status === 200 && body.includes('Routing, renamed</a>'));
  dev.saveAtomically(file, original);
  await dev.eventually('/en/docs/markdown', (body, status) => status === 200 && !body.includes('Routing, renamed'));
});

/** Waits (bounded) for a line `npm run dev` prints after the `from`th that matches `pattern`; returns it. */
async function printed(from: number, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + RELOAD_WAIT_MS;
  for (;;) {
    const line = dev.lines.slice(from).find((text) => pattern.test(text));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${dev.lines.slice(from).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a screen changed under src/ shows in the open tab, the restarted server taking the compiled pages from the cache', async () => {
  const file = 'src/routes/screens/not-found.tsx';
  const original = dev.read(file);
  const page = await open('/en/nope');
  for (const version of [1, 2]) {
    const from = dev.lines.length;
    dev.saveAtomically(file, original.replace('<h1', `<h1 data-edited="${version}"`));
    await page.waitForSelector(`h1[data-edited="${version}"]`, WAIT);
    const [, reused, of] = /rebuilt in \d+ ms, (\d+) of (\d+) compiled pages reused/.exec(await printed(from, /rebuilt in/)) ?? [];
    // Every page but those edited since the last start (none the second time) came from the cache.
    assert.ok(Number(reused) > 0 && Number(of) > 0, dev.lines.slice(from).join('\n'));
    if (version === 2) assert.equal(reused, of);
  }
  dev.saveAtomically(file, original);
  await page.waitForFunction(() => document.querySelector('h1') !== null && document.querySelector('h1[data-edited]') === null, null, WAIT);
  await page.context().close();
});

test("a change to the server's code alone shows in the open tab; the browser's code is not made again", async () => {
  const file = 'src/server/pages/document-shell.ts';
  const original = dev.read(file);
  const changed = original.replace("'</head><body>'", '\'</head><body data-edited="server">\'');
  assert.notEqual(changed, original, 'the change applies');
  const page = await open('/en/about');
  const from = dev.lines.length;
  dev.saveAtomically(file, changed);
  try {
    await page.waitForSelector('body[data-edited="server"]', WAIT);
    assert.match(await printed(from, /rebuilt in/), /; the server's code only$/);
  } finally {
    dev.saveAtomically(file, original);
  }
  await page.waitForFunction(() => document.body !== null && !document.body.hasAttribute('data-edited'), null, WAIT);
  await page.context().close();
});

test("a change to the browser's code alone shows in the open tab, and the server runs on with the new build", async () => {
  // The critical rules are inlined in every page from the build's manifest: the running server must read the new one.
  const file = 'src/client/site.css';
  const original = dev.read(file);
  const page = await open('/en/about');
  const from = dev.lines.length;
  dev.saveAtomically(file, `${original}\nbody{outline:3px solid rgb(1, 2, 3)}\n`);
  try {
    await page.waitForFunction(() => getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)', null, WAIT);
    assert.match(await printed(from, /rebuilt in/), /; the browser's code only, the server runs on$/);
  } finally {
    dev.saveAtomically(file, original);
  }
  await page.waitForFunction(() => getComputedStyle(document.body).outlineColor !== 'rgb(1, 2, 3)', null, WAIT);
  await page.context().close();
});

test("a change to the Markdown compiler under src/ shows in the pages' HTML: no page is taken from the cache", async () => {
  const file = 'src/server/content/markdown/headings.ts';
  const original = dev.read(file);
  const from = dev.lines.length;
  const changed = original.replace('`<div class="heading">', '`<div class="heading" data-compiled="anew">');
  assert.notEqual(changed, original, 'the change applies');
  dev.saveAtomically(file, changed);
  try {
    await dev.eventually('/en/about', (body, status) => status === 200 && body.includes('<div class="heading" data-compiled="anew">'));
    assert.match((await get(dev.url, '/de/ueber-uns')).body, /<div class="heading" data-compiled="anew">/);
    assert.match(await printed(from, /rebuilt in/), /, 0 of \d+ compiled pages reused/);
  } finally {
    dev.saveAtomically(file, original);
  }
  await dev.eventually(
    '/en/about',
    (body, status) => status === 200 && body.includes('<div class="heading">') && !body.includes('data-compiled'),
  );
});

test('after a restart, the search index has the title a page was given before it: an index is kept only for the pages it was made from', async () => {
  const page = 'locales/en/pages/about.md';
  const original = dev.read(page);
  dev.saveAtomically(page, original.replace(/^title: .*$/m, 'title: "About Zanzibarish"'));
  await dev.eventually('/en/about', (body, status) => status === 200 && body.includes('About Zanzibarish</h1>'));
  const screen = 'src/routes/screens/not-found.tsx';
  const code = dev.read(screen);
  const from = dev.lines.length;
  dev.saveAtomically(screen, code.replace('<h1', '<h1 data-restarted="yes"'));
  try {
    await dev.eventually('/en/nope', (body, status) => status === 404 && body.includes('data-restarted="yes"'));
    assert.match(await printed(from, /rebuilt in/), /[1-9]\d* of \d+ compiled pages reused/);
    const { search } = JSON.parse(
      /<script type="application\/json" id="polysite-data">(.*?)<\/script>/s.exec((await get(dev.url, '/en')).body)![1]!,
    );
    const index = await get(dev.url, search.en, { 'Accept-Encoding': 'identity' });
    assert.equal(index.status, 200);
    assert.match(index.body, /About Zanzibarish/);
    // The server's search answers from the same index (the query is echoed in lower case; the title is marked where it matches).
    assert.match((await get(dev.url, '/en/search?q=zanzibarish')).body, /Zanzibarish/);
  } finally {
    dev.saveAtomically(screen, code);
    dev.saveAtomically(page, original);
  }
});

test('a server that fails as it starts shows its error in the overlay, and the fix serves the site again', async () => {
  const file = 'src/server/http/log.ts';
  const original = dev.read(file);
  dev.saveAtomically(file, `${original}\nthrow new Error('broken at start on purpose');\n`);
  try {
    await dev.eventually('/en/about', (body, status) => status === 500 && body.includes('broken at start on purpose'));
  } finally {
    dev.saveAtomically(file, original);
  }
  await dev.eventually('/en/about', (body, status) => status === 200 && body.includes('</h1>'));
});

/** The site's entry script (`/assets/main-<hash>.js`) a page of `path` loads. */
async function entryScript(path: string): Promise<string> {
  const { body } = await get(dev.url, path);
  const src = /<script type="module" src="(\/assets\/main-[^"]+\.js)"/.exec(body)?.[1];
  assert.ok(src, 'the page loads the entry script');
  return src;
}

/** The packages' registry file (scripts/dev-packages.ts) a script of the browser's bundle imports first. */
function registryOf(script: string): string {
  const url = /^import "(\/assets\/vendor-_registry-[^"]+\.js)";$/m.exec(script)?.[1];
  assert.ok(url, 'the script imports the packages first');
  return url;
}

/**
 * Where DevTools shows the code at the first place `needle` is in the script at `url`: the
 * file and line its linked source map gives, and that file's text as the map carries it.
 */
async function mapped(url: string, needle: string): Promise<{ source: string; line: number; text: string }> {
  const script = (await get(dev.url, url)).body;
  const mapUrl = /^\/\/# sourceMappingURL=(\S+)$/m.exec(script)?.[1];
  assert.ok(mapUrl, `${url} links its source map`);
  const map = await get(dev.url, new URL(mapUrl, new URL(url, dev.url)).pathname);
  assert.equal(map.status, 200);
  const offset = script.indexOf(needle);
  assert.ok(offset >= 0, `${needle} in ${url}`);
  const before = script.slice(0, offset).split('\n');
  const traced = new TraceMap(map.body);
  const { source, line } = originalPositionFor(traced, { line: before.length, column: before.at(-1)!.length });
  assert.ok(source && line, `${needle} in ${url} maps to a file`);
  const index = traced.resolvedSources.indexOf(source);
  return { source, line, text: traced.sourcesContent?.[index] ?? '' };
}

test("DevTools maps the browser's code to its line under src/, and a package's code to its file under node_modules", async () => {
  const main = await entryScript('/en/about');
  const own = await mapped(main, 'dataset.hydrated = ""');
  assert.match(own.source, /\/src\/client\/main\.tsx$/);
  const lines = dev.read('src/client/main.tsx').split('\n');
  assert.match(lines[own.line - 1]!, /dataset\.hydrated = ''/);
  assert.equal(own.text, lines.join('\n'), 'the map carries the file as it is');
  const react = await mapped(registryOf((await get(dev.url, main)).body), 'exports.useState = function');
  assert.match(react.source, /\/node_modules\/react\/cjs\/react\.development\.js$/);
  assert.match(react.text.split('\n')[react.line - 1]!, /useState/);
});

test("a save of the browser's code bundles the project's code again, not its packages: their files stay as the tab has them", async () => {
  const file = 'src/client/main.tsx';
  const original = dev.read(file);
  const before = await entryScript('/en/about');
  const packages = registryOf((await get(dev.url, before)).body);
  const page = await open('/en/about');
  dev.saveAtomically(file, original.replace("dataset.hydrated = ''", "dataset.hydrated = 'edited'"));
  try {
    // The new code runs with the packages it imports (React hydrated the page).
    await page.waitForSelector('html[data-hydrated="edited"]', WAIT);
    const after = await entryScript('/en/about');
    assert.notEqual(after, before);
    assert.equal(registryOf((await get(dev.url, after)).body), packages);
  } finally {
    dev.saveAtomically(file, original);
  }
  await page.waitForSelector('html[data-hydrated=""]', WAIT);
  await page.context().close();
});

test("a package the browser's code starts to import during the session works at once, and after the next save", async () => {
  const file = 'src/client/main.tsx';
  const original = dev.read(file);
  // A package the site's browser code does not import (the server's search uses it).
  const withPackage = (mark: string) =>
    `import MiniSearch from 'minisearch';\n${original.replace("dataset.hydrated = ''", `dataset.hydrated = \`${mark}-\${typeof MiniSearch}\``)}`;
  const page = await open('/en/about');
  try {
    dev.saveAtomically(file, withPackage('first'));
    await page.waitForSelector('html[data-hydrated="first-function"]', WAIT);
    dev.saveAtomically(file, withPackage('second'));
    await page.waitForSelector('html[data-hydrated="second-function"]', WAIT);
    assert.match((await get(dev.url, await entryScript('/en/about'))).body, /from "\/assets\/vendor-minisearch-[^"]+\.js"/);
  } finally {
    dev.saveAtomically(file, original);
  }
  await page.waitForSelector('html[data-hydrated=""]', WAIT);
  await page.context().close();
});
