/**
 * Bare React on node:http, no framework: parses `/<locale>/<slug...>` itself and renders the
 * page per request. RENDER picks how:
 * - `stream` (default): renderToPipeableStream, piped once the shell is ready;
 * - `string`: renderToString, one res.end();
 * - `buffer`: the measured page rendered once at start-up, then that one Buffer for every
 *   request whatever its path: the ceiling of one Node process answering HTML. With
 *   BUFFER_FILE and BUFFER_HEADERS (a JSON array of names and values) it sends those bytes
 *   and headers instead: another server's answer, replayed at this ceiling.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { BENCH_PATH, pageModel, type PageModel } from '../../fixture/page.ts';
import { Document } from './document.tsx';

const mode = process.env.RENDER ?? 'stream';
const clientJs = readFileSync(new URL('./client.js', import.meta.url));
const HTML = { 'content-type': 'text/html; charset=utf-8' };

function renderString(page: PageModel): string {
  return `<!DOCTYPE html>${renderToString(<Document page={page} />)}`;
}

function stream(page: PageModel, res: ServerResponse) {
  const rendering = renderToPipeableStream(<Document page={page} />, {
    onShellReady() {
      res.writeHead(200, HTML);
      rendering.pipe(res);
    },
    onShellError() {
      res.writeHead(500).end();
    },
    onError(error) {
      console.error(error);
    },
  });
}

const precomputed = process.env.BUFFER_FILE ? readFileSync(process.env.BUFFER_FILE) : Buffer.from(renderString(pageFor(BENCH_PATH)!));
const precomputedHeaders: Record<string, string> | string[] = process.env.BUFFER_HEADERS ? JSON.parse(process.env.BUFFER_HEADERS) : HTML;

function pageFor(path: string): PageModel | undefined {
  const [, locale = '', ...slug] = path.split('/');
  return pageModel(locale, slug.join('/'));
}

const server = createServer((req, res) => {
  if (mode === 'buffer') return res.writeHead(200, precomputedHeaders).end(precomputed);
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === '/client.js') return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=31536000, immutable' }).end(clientJs);
  const page = pageFor(path);
  if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  if (mode === 'string') return res.writeHead(200, HTML).end(renderString(page));
  stream(page, res);
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
