import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { get } from '../helpers/http.ts';
import { ROOT, startServer } from '../helpers/server.ts';

/**
 * `npm run dev` as a developer uses it: edit a page and a message in a copy of
 * the content, see the change served; break a file, see the overlay; fix it.
 */
let dev: ChildProcess;
let url = '';
let content = '';

before(async () => {
  content = mkdtempSync(join(tmpdir(), 'polysite-dev-'));
  cpSync(join(ROOT, 'locales'), content, { recursive: true });
  dev = spawn('npm', ['run', 'dev'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOCALES_DIR: content },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  dev.stderr!.resume();
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm run dev did not start in 60 s')), 60_000);
    createInterface({ input: dev.stdout! }).on('line', (line) => {
      const match = /serving (http:\/\/localhost:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
  });
});

after(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGKILL');
  rmSync(content, { recursive: true, force: true });
});

/** Polls until `check` passes on the page's HTML (the dev server restarts in about a second). */
async function eventually(path: string, check: (body: string, status: number) => boolean, ms = 8000): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    const response = await get(url, path);
    last = response.body;
    if (check(response.body, response.status)) return response.body;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`not seen within ${ms} ms; last body began: ${last.slice(0, 300)}`);
}

const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(join(content, file), change(readFileSync(join(content, file), 'utf8')));

test('an edited Markdown page is served within a few seconds', async () => {
  await eventually('/en/about', (body, status) => status === 200 && body.includes('__polysite_dev/client.js'));
  edit('en/pages/about.md', (text) => text.replace(/^title: .*$/m, 'title: "About, edited live"'));
  await eventually('/en/about', (body) => body.includes('About, edited live</h1>'));
});

test('an edited message is served within a few seconds', async () => {
  edit('de/messages.json', (text) => text.replace(/"nav.blog": "[^"]*"/, '"nav.blog": "Neuigkeiten"'));
  await eventually('/de', (body) => body.includes('>Neuigkeiten</a>'));
});

test('broken front matter shows an overlay with file and line, and fixing the file removes it', async () => {
  const original = readFileSync(join(content, 'fr/pages/about.md'), 'utf8');
  writeFileSync(join(content, 'fr/pages/about.md'), original.replace(/^---\n/, ''));
  const overlay = await eventually('/fr/about', (body, status) => status === 500 && body.includes('polysite-dev-overlay'));
  assert.match(overlay, /fr\/pages\/about\.md:1: missing front matter/);
  writeFileSync(join(content, 'fr/pages/about.md'), original);
  await eventually('/fr/about', (body, status) => status === 200 && !body.includes('polysite-dev-overlay'));
});

test('a message that does not parse shows the overlay naming the file and key', async () => {
  const file = 'ja/messages.json';
  const original = readFileSync(join(content, file), 'utf8');
  edit(file, (text) => text.replace(/"nav.home": "[^"]*"/, '"nav.home": "{broken"'));
  const overlay = await eventually('/ja', (body, status) => status === 500 && body.includes('polysite-dev-overlay'));
  assert.match(overlay, /ja\/messages\.json: message &quot;nav\.home&quot; does not parse/);
  writeFileSync(join(content, file), original);
  await eventually('/ja', (_body, status) => status === 200);
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
