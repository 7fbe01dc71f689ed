import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import { chooseEncoding, compressStream, StoredBody } from './compression.ts';

/** Cache-Control values, decided once from the configuration. */
export type CachePolicy = { page: string; notFound: string; permanentRedirect: string; negotiated: string; never: string };

export function cachePolicy(pageMaxAge: number): CachePolicy {
  // Browsers revalidate every time (a 304 with the ETag is cheap); CDNs keep pages for
  // PAGE_MAX_AGE and may serve a stale copy while they refetch in the background.
  const shared = pageMaxAge > 0 ? `, s-maxage=${pageMaxAge}, stale-while-revalidate=${pageMaxAge}` : '';
  return {
    page: `public, max-age=0${shared}`,
    notFound: `public, max-age=0${pageMaxAge > 0 ? `, s-maxage=${Math.min(60, pageMaxAge)}` : ''}`,
    permanentRedirect: 'public, max-age=3600',
    negotiated: 'private, no-cache',
    never: 'no-store',
  };
}

/** A body held in memory: the client's encoding, made once per body. */
export function sendStored(ctx: Context, body: StoredBody): void {
  ctx.vary('Accept-Encoding');
  const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = body.get(encoding);
}

/** A streamed body, compressed as it flows when the client accepts it. */
export function sendStream(ctx: Context, stream: Readable): void {
  ctx.vary('Accept-Encoding');
  const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
  if (encoding === 'identity') {
    ctx.body = stream;
    return;
  }
  ctx.set('Content-Encoding', encoding);
  ctx.body = compressStream(stream, encoding);
}

/** Calls `done` with the whole stream once it ended cleanly (not on error or abort). */
export function collect(stream: Readable, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let failed = false;
  stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  stream.on('error', () => (failed = true));
  stream.on('end', () => {
    if (!failed) done(Buffer.concat(chunks));
  });
}

export { StoredBody };
