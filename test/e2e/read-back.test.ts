import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { readHead } from '../../src/client/read-head.ts';
import type { readPayload } from '../../src/routes/page-data.ts';
import type { PageData } from '../../src/routes/types.ts';
import { withServerAndBrowser } from '../helpers/e2e.ts';

/**
 * The embedded page data leaves out what the document shows (the head, the content,
 * the language switcher, a docs page's tree and contents list), and the browser reads
 * them back from the DOM. Here the real readers run in Chromium over every page of the
 * site, and must give back the page's data as the server has it (its JSON).
 */
const e2e = withServerAndBrowser();

const ROOT = join(import.meta.dirname, '..', '..');

/** readPayload and readHead, as the browser bundle has them, on `window.readBack`. */
async function readersScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "export { readPayload } from './src/routes/page-data.ts'; export { readHead } from './src/client/read-head.ts';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'readBack',
    target: 'es2022',
  });
  return result.outputFiles[0]!.text;
}

type Read = { path: string; embedded: PageData; read: PageData; served: PageData };

test('every page’s data read back from its document equals the data the server serves for it', async () => {
  const base = e2e.server.url;
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const sitemapPaths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  // The site's CSP refuses inline scripts, the readers' included: this test's page only.
  const context = await e2e.browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${base}/en`);
  await page.addScriptTag({ content: await readersScript() });

  const readAll = (paths: string[]) =>
    page.evaluate(async (paths) => {
      type Readers = { readPayload: typeof readPayload; readHead: typeof readHead };
      const readers = (window as unknown as { readBack: Readers }).readBack;
      const out: Read[] = [];
      for (const path of paths) {
        const html = await (await fetch(path)).text();
        const doc = new DOMParser().parseFromString(html, 'text/html');
        const embedded = JSON.parse(doc.getElementById('polysite-data')!.textContent!).page;
        const read = readers.readPayload(doc, readers.readHead).page;
        const served = (await (await fetch(`/_data/${read.build}${path}.json`)).json()).page;
        // The tree read back is the browser's serialization of the served HTML: the served one
        // is serialized so too (`&#x27;` comes back as `'`), then compared whole.
        if (served.screen.kind === 'docs') {
          const holder = document.createElement('template');
          holder.innerHTML = served.screen.sidebar;
          served.screen.sidebar = holder.innerHTML;
        }
        out.push({ path, embedded, read, served });
      }
      return out;
    }, paths);

  // The sitemap's pages, then every page their language switchers link to (untranslated
  // pages among them, shown in the original's language), and a not-found page.
  const first = await readAll(sitemapPaths);
  const linked = new Set(first.flatMap(({ served }) => served.locales.map((entry) => entry.path)));
  for (const path of sitemapPaths) linked.delete(path);
  const reads = [...first, ...(await readAll([...linked, '/fr/nulle-part']))];
  await context.close();

  assert.ok(reads.length >= 85, `the whole site (${reads.length} pages)`);
  assert.ok(
    reads.some(({ read }) => read.screen.kind === 'docs' && / lang="/.test(read.screen.sidebar)),
    'an untranslated title in a docs tree',
  );
  assert.ok(
    reads.some(({ read }) => read.screen.kind === 'docs' && read.screen.toc.some((heading) => heading.level === 3)),
    'a contents list with a nested heading',
  );
  let docs = 0;
  for (const { path, embedded, read, served } of reads) {
    // The document's content HTML is the browser's serialization of the same markup: compared apart.
    const withoutHtml = ({ screen, ...page }: PageData) => ({ ...page, screen: { ...screen, html: undefined } });
    assert.deepEqual(withoutHtml(read), withoutHtml(served), path);
    assert.deepEqual(embedded.locales, [], `${path}: the switcher is not embedded`);
    if (served.screen.kind !== 'docs' || embedded.screen.kind !== 'docs') continue;
    docs++;
    assert.deepEqual([embedded.screen.sidebar, embedded.screen.toc], ['', []], `${path}: the tree and contents are not embedded`);
  }
  assert.ok(docs >= 40, `docs pages (${docs})`);
});
