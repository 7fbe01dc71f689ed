import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

/**
 * Security headers on every response, error pages and redirects included.
 * Scripts: same origin only, no eval and no inline script anywhere (the head's script is a
 * file too: pages/head-script.ts); page data travels as JSON in a non-executed
 * <script type="application/json">. Styles: same
 * origin, and the one inline stylesheet every page carries (its critical CSS), by its
 * hash: no other inline style or style attribute applies.
 */
export function contentSecurityPolicy(styleSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleSources].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    // The monitoring relay is same-origin, so 'self' covers it.
    "connect-src 'self'",
    // Sentry Replay's compression worker is created from a blob: URL.
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A CSP source that allows an inline <style> whose text is exactly `css`. */
export function styleHashSource(css: string): string {
  return `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
}

/** The headers every response gets, HSTS aside, with the CSP allowing these inline styles (a site's critical CSS). */
export function alwaysHeaders(styleSources: readonly string[]): readonly (readonly [string, string])[] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(styleSources)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
  ];
}

// HSTS only over https: sent over http it is ignored at best and breaks local setups at worst.
const HSTS = 'max-age=31536000; includeSubDomains';

/** The header sent over https only (see servedOverHttps); the export writes it for hosts whose PUBLIC_URL is https. */
export const HTTPS_ONLY_HEADER: readonly [string, string] = ['Strict-Transport-Security', HSTS];

/**
 * The headers of a response that carries no page (no inline style to allow): the answers
 * Node gives before Koa runs, and the relay's.
 */
export const ALWAYS_HEADERS: readonly (readonly [string, string])[] = alwaysHeaders([]);

/**
 * Set before the rest of the stack runs (nothing downstream decides them), so this is
 * a plain function and no await; errorsMiddleware keeps them when it clears a failed
 * response's headers, and Node-level refusals add them in serve.ts.
 */
export function securityHeaders({ trustProxy, styleSources = [] }: { trustProxy: number; styleSources?: readonly string[] }): Middleware {
  // Made once with the app: the same strings for every response.
  const always = alwaysHeaders(styleSources);
  return (ctx, next) => {
    for (const [name, value] of always) ctx.set(name, value);
    if (requestOverHttps(ctx.req, trustProxy)) ctx.set(...HTTPS_ONLY_HEADER);
    return next();
  };
}

/** Headers an error response keeps from the ones set before it failed. */
export const SECURITY_HEADER_NAMES: readonly string[] = [...ALWAYS_HEADERS.map(([name]) => name), HTTPS_ONLY_HEADER[0]];

/** Whether this request came over https, by our socket or, with TRUST_PROXY, by our proxies' word. */
export function requestOverHttps(req: IncomingMessage, trustProxy: number): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  return servedOverHttps('encrypted' in req.socket, Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''), trustProxy);
}

/**
 * The scheme the visitor used. Without TRUST_PROXY, only our own socket counts.
 * With N trusted hops, X-Forwarded-Proto is read like X-Forwarded-For: the entry the
 * outermost trusted proxy wrote is N from the right; entries left of it came from
 * the client. (Koa's ctx.protocol takes the first entry, which a client can set.)
 */
export function servedOverHttps(encrypted: boolean, forwardedProto: string, trustProxy: number): boolean {
  if (trustProxy === 0 || !forwardedProto) return encrypted;
  const values = forwardedProto.split(',');
  const value = values[Math.max(0, values.length - trustProxy)]!;
  return value.trim().toLowerCase() === 'https';
}
