// How a body leaves the server: the client's encoding, the representation's
// validator and 304, a stored body or a compressed stream.
import type { Context, Middleware } from 'koa';
import { HttpError } from './errors.ts';
import { Readable } from 'node:stream';
import { chooseEncoding, compressStream, compressWhole, type Encoding, type StoredBody } from './stored-body.ts';

/**
 * The encoding this response will use. `Vary` is set first, so that a 304 carries
 * it too (RFC 9110 15.4.5: a 304 has the headers the 200 would have had). A client
 * that accepts none of ours (`identity;q=0, *;q=0`) gets 406 (RFC 9110 12.5.3).
 */
export function negotiateEncoding(ctx: Context): Encoding {
  ctx.vary('Accept-Encoding');
  const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
  if (encoding === null) throw new HttpError(406, 'No acceptable encoding');
  return encoding;
}

/** For bodies another middleware sends (koa-static's files): a 406 first when the client accepts no encoding of ours. */
export const requireAcceptableEncoding: Middleware = (ctx, next) => {
  negotiateEncoding(ctx);
  return next();
};

/**
 * One strong validator per representation: the br, gzip and plain bodies are
 * different bytes, so they must not share an ETag (RFC 9110 8.8.3), or a cache
 * could pair a 304 for one with the stored body of another.
 */
export function representationTag(etag: string, encoding: Encoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/**
 * Sets this representation's ETag (when the body has one) and answers 304 when the
 * client's copy is still fresh: true means the response is complete.
 */
export function answeredNotModified(ctx: Context, etag: string | undefined, encoding: Encoding): boolean {
  if (!etag) return false;
  ctx.etag = representationTag(etag, encoding);
  if (!ctx.fresh) return false;
  ctx.status = 304;
  return true;
}

/** A body held in memory: the client's encoding, made once per body. HEAD gets its headers and length. */
export function sendStored(ctx: Context, body: StoredBody, encoding: Encoding = negotiateEncoding(ctx)): void {
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = body.get(encoding);
}

/**
 * A whole body made for this response alone (a page rendered with the render cache
 * off), compressed at once at the per-request level. Those bytes are not the
 * stored form's (compression.ts), so the validator is weak, as for a stream.
 */
export function sendWhole(ctx: Context, body: Buffer, encoding: Encoding): void {
  if (encoding === 'identity') {
    ctx.body = body;
    return;
  }
  if (ctx.etag) ctx.etag = `W/${ctx.etag}`;
  ctx.set('Content-Encoding', encoding);
  // A body past this size is compressed as a stream, on zlib's threads: compressed at once on
  // the event loop, one very long page would hold every other request behind it.
  ctx.body = body.length <= WHOLE_ON_LOOP_BYTES ? compressWhole(body, encoding) : compressStream(Readable.from([body]), encoding);
}

/** The largest body sendWhole compresses on the event loop: far more than a docs page's HTML or data. */
const WHOLE_ON_LOOP_BYTES = 256 * 1024;

/**
 * Whether the request that made a body (a page just rendered, page data just serialized) is
 * answered with its own compression, at the per-request level (sendWhole, a weak ETag), as
 * with the render cache off: the kept forms (stored-body.ts) are compressed at a high level,
 * worth it for a page asked for again, not for one a crawler asks for once, so they are made
 * at the second answer. HEAD takes the kept form: its Content-Length is the one every later
 * GET has. A plain body (identity) is the kept one already.
 */
export function answersWithOwnCompression(ctx: Context, encoding: Encoding): boolean {
  return encoding !== 'identity' && ctx.method === 'GET';
}

/** A streamed body, compressed as it flows when the client accepts it. */
export function sendStream(ctx: Context, stream: Readable, encoding: Encoding = negotiateEncoding(ctx)): void {
  if (encoding === 'identity') {
    ctx.body = stream;
    return;
  }
  ctx.set('Content-Encoding', encoding);
  ctx.body = compressStream(stream, encoding);
}

/** Calls `done` with the pieces of the whole stream once it ended cleanly (not on error or abort). */
export function collect(stream: Readable, done: (body: Buffer[]) => void): void {
  const chunks: Buffer[] = [];
  let failed = false;
  stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  stream.on('error', () => (failed = true));
  stream.on('end', () => {
    if (!failed) done(chunks);
  });
}
