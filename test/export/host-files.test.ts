import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALWAYS_HEADERS } from '../../src/server/http/security-headers.ts';
import { get } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { type HeaderRule, headersFor, parseHeadersFile, sharedExport, type ExportRun } from '../helpers/static-host.ts';

/**
 * The export's `_headers` and `_redirects` (Netlify, Cloudflare Pages) against the real
 * server of the same build, path by path: every page of the sitemap, its page data and
 * each kind of redirect the server gives. The host files are read as Netlify reads them
 * (a small evaluator below: first match wins, a rule without `!` yields to a file that
 * exists). The README's documented differences: the host redirects with 301 where the
 * server answers 308.
 */
let run: ExportRun;
let server: RunningServer;
let headerRules: HeaderRule[];
let redirectRules: RedirectRule[];
let pages: string[];

before(async () => {
  run = await sharedExport();
  assert.equal(run.code, 0, run.stderr);
  server = await startServer();
  headerRules = parseHeadersFile(readFileSync(join(run.out, '_headers'), 'utf8'));
  redirectRules = parseRedirects(readFileSync(join(run.out, '_redirects'), 'utf8'));
  const sitemap = (await get(server.url, '/sitemap.xml')).body;
  pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
});
after(async () => {
  await server?.stop();
});

type RedirectRule = { from: string; to: string; status: number; forced: boolean; condition: string | null };

function parseRedirects(text: string): RedirectRule[] {
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [from, to, status, condition] = line.trim().split(/\s+/);
      return { from: from!, to: to!, status: Number.parseInt(status!, 10), forced: status!.endsWith('!'), condition: condition ?? null };
    });
}

/** The file the host serves for a (decoded) path, if any: `x.html`, `x/index.html` or the file itself. */
function hostedFile(path: string): string | undefined {
  const decoded = decodeURIComponent(path);
  return [decoded, `${decoded}.html`, `${decoded}/index.html`]
    .map((candidate) => join(run.out, candidate))
    .find((file) => existsSync(file) && !file.endsWith('/'));
}

/** What the host answers for a path by its `_redirects` (Location decoded): the first rule that applies, or the file. Conditional rules are left out. */
function hosted(path: string): { status: number; location?: string } {
  const decoded = decodeURIComponent(path);
  for (const rule of redirectRules) {
    if (rule.condition) continue;
    const splat = rule.from.endsWith('/*') ? rule.from.slice(0, -2) : null;
    const rest = splat !== null && (decoded === splat || decoded.startsWith(`${splat}/`)) ? decoded.slice(splat.length + 1) : null;
    if (splat === null ? decoded !== decodeURIComponent(rule.from) : rest === null) continue;
    // Netlify: a rule without `!` applies only where no file answers.
    if (!rule.forced && hostedFile(path)) continue;
    const to = rest === null ? rule.to : rule.to.replace(':splat', rest);
    return rule.status >= 300 && rule.status < 400 ? { status: rule.status, location: decodeURI(to) } : { status: rule.status };
  }
  return hostedFile(path) ? { status: 200 } : { status: 404 };
}

/** The header lines of a server answer that `_headers` must give too: Cache-Control and every security header. */
function comparedHeaders(headers: Record<string, string | string[] | undefined>): [string, string][] {
  return ['Cache-Control', ...ALWAYS_HEADERS.map(([name]) => name)].map((name) => [name, String(headers[name.toLowerCase()])]);
}

function assertSameHeaders(path: string, served: Record<string, string | string[] | undefined>) {
  const fromFile = headersFor(headerRules, decodeURIComponent(path));
  for (const [name, value] of comparedHeaders(served))
    assert.deepEqual(
      fromFile.filter(([n]) => n === name),
      [[name, value]],
      `${path}: ${name}`,
    );
}

describe('the host files and the server, path by path', () => {
  test('every page of the sitemap: 200 on both, with the same cache policy and security headers', async () => {
    assert.ok(pages.length > 50, `${pages.length} pages`);
    for (const path of pages) {
      const served = await get(server.url, path);
      assert.equal(served.status, 200, path);
      assert.deepEqual(hosted(path), { status: 200 }, `${path}: the host serves its file`);
      assertSameHeaders(path, served.headers);
    }
  });

  test("every page's data: the same cache policy and security headers", async () => {
    const build = JSON.parse((await get(server.url, '/healthz')).body).build as string;
    for (const path of pages.slice(0, 40)) {
      const data = `/_data/${build}${path}.json`;
      const served = await get(server.url, data);
      assert.equal(served.status, 200, data);
      assertSameHeaders(data, served.headers);
    }
  });

  test('a locale prefix in another case: one redirect to the same place (308 on the server, 301 on the host)', async () => {
    for (const path of pages.slice(0, 30)) {
      const [, locale = '', ...rest] = path.split('/');
      for (const form of new Set([locale.toUpperCase(), locale.charAt(0).toUpperCase() + locale.slice(1)])) {
        if (form === locale) continue;
        const miscased = ['', form, ...rest].join('/');
        const served = await get(server.url, miscased);
        assert.equal(served.status, 308, miscased);
        assert.deepEqual(hosted(miscased), { status: 301, location: decodeURI(served.headers.location as string) }, miscased);
      }
    }
  });

  test('a page asked at its default path in a locale that localized it: to its path there, on both', async () => {
    const moved = redirectRules.filter((rule) => !rule.from.includes('*') && rule.status === 301 && !/^\/[^/]+$/.test(rule.from));
    assert.ok(moved.length > 0, 'the default site localizes some paths');
    for (const rule of moved) {
      const from = encodeURI(decodeURI(rule.from));
      const served = await get(server.url, from);
      assert.equal(served.status, 308, rule.from);
      assert.equal(decodeURI(served.headers.location as string), decodeURI(rule.to), rule.from);
      assert.deepEqual(hosted(from), { status: 301, location: decodeURI(rule.to) }, rule.from);
    }
  });

  test("a missing page under a locale: 404 on both, the host with that locale's not-found page", async () => {
    for (const locale of ['en', 'de', 'fr', 'ja', 'ar']) {
      const path = `/${locale}/docs/no-such-page`;
      assert.equal((await get(server.url, path)).status, 404, path);
      assert.deepEqual(hosted(path), { status: 404 }, path);
      assert.ok(redirectRules.some((rule) => rule.from === `/${locale}/*` && rule.to === `/${locale}/404.html` && rule.status === 404));
    }
  });
});
