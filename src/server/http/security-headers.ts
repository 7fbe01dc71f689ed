import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { THEME_SCRIPT_HASH } from '../pages/theme-script.ts';

/**
 * Security headers on every response, error pages and redirects included.
 * Scripts: same origin only, no eval anywhere, and no inline script but the theme
 * script, allowed by its hash (theme-script.ts); page data travels as JSON in a
 * non-executed <script type="application/json">.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${THEME_SCRIPT_HASH}`,
  "style-src 'self'",
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

const ALWAYS: (readonly [string, string])[] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
];

// HSTS only over https: sent over http it is ignored at best and breaks local setups at worst.
const HSTS = 'max-age=31536000; includeSubDomains';

/** The header sent over https only (see servedOverHttps); the export writes it for hosts whose PUBLIC_URL is https. */
export const HTTPS_ONLY_HEADER: readonly [string, string] = ['Strict-Transport-Security', HSTS];

/** Every header we send on every response, HSTS aside: also used for answers Node gives before Koa runs. */
export const ALWAYS_HEADERS: readonly (readonly [string, string])[] = ALWAYS;

/**
 * Set before the rest of the stack runs (nothing downstream decides them), so this is
 * a plain function and no await; errorsMiddleware keeps them when it clears a failed
 * response's headers, and Node-level refusals add them in serve.ts.
 */
export function securityHeaders({ trustProxy }: { trustProxy: number }): Middleware {
  return (ctx, next) => {
    for (const [name, value] of ALWAYS) ctx.set(name, value);
    if (requestOverHttps(ctx.req, trustProxy)) ctx.set(...HTTPS_ONLY_HEADER);
    return next();
  };
}

/** Headers an error response keeps from the ones set before it failed. */
export const SECURITY_HEADER_NAMES: readonly string[] = [...ALWAYS.map(([name]) => name), HTTPS_ONLY_HEADER[0]];

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
