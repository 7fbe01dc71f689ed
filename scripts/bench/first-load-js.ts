/**
 * The JavaScript a browser fetches to load a page, gzipped at level 9: every external
 * `<script src>` (not `nomodule`: module browsers skip it), every `<link rel="modulepreload">`,
 * the static imports of inline module scripts, and, transitively, the static imports of every
 * module fetched. Dynamic `import()` is not followed: it loads later, if at all. Each file counts
 * once. Inline scripts (a framework's hydration payload) are part of the HTML, not counted here.
 */
import { gzipSync } from 'node:zlib';

export type FirstLoadJs = { files: { url: string; gzipBytes: number }[]; gzipBytes: number };

// `import x from "y"`, `import "y"`, `export * from "y"`, minified or not; `import(` has no quote after it.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"'\n]+)["']/g;
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const LINK = /<link\b([^>]*)>/gi;

export async function firstLoadJs(pageUrl: string): Promise<FirstLoadJs> {
  const html = (await get(pageUrl)).toString('utf8');
  const queue: { url: string; isModule: boolean }[] = [];
  const seen = new Set<string>();
  const add = (specifier: string | undefined, base: string, isModule: boolean) => {
    if (!specifier || /^(data|blob):/.test(specifier)) return;
    const url = new URL(specifier, base).href;
    if (seen.has(url)) return;
    seen.add(url);
    queue.push({ url, isModule });
  };

  for (const [, attributes = '', body = ''] of html.matchAll(SCRIPT)) {
    if (/\bnomodule\b/i.test(attributes)) continue;
    const isModule = attribute(attributes, 'type')?.toLowerCase() === 'module';
    const src = attribute(attributes, 'src');
    if (src) add(src, pageUrl, isModule);
    else if (isModule) for (const [, specifier] of body.matchAll(STATIC_IMPORT)) add(specifier, pageUrl, true);
  }
  for (const [, attributes = ''] of html.matchAll(LINK)) {
    if (attribute(attributes, 'rel')?.toLowerCase() === 'modulepreload') add(attribute(attributes, 'href'), pageUrl, true);
  }

  const files: FirstLoadJs['files'] = [];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const body = await get(next.url);
    files.push({ url: next.url, gzipBytes: gzipSync(body, { level: 9 }).length });
    if (!next.isModule) continue;
    for (const [, specifier = ''] of body.toString('utf8').matchAll(STATIC_IMPORT)) {
      if (/^\.{0,2}\//.test(specifier)) add(specifier, next.url, true); // bare specifiers are not URLs a browser can fetch
    }
  }
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

async function get(url: string): Promise<Buffer> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  if (!response.ok) throw new Error(`${response.status} for ${url}`);
  return Buffer.from(await response.arrayBuffer());
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}
