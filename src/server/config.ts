import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLocaleTag } from '../i18n/locales.ts';
import { FIXED_FIRST_SEGMENTS } from './http/fixed-routes.ts';
import { dsnToString, parseDsn, type Dsn } from './monitoring/relay/dsn.ts';

/**
 * The only place environment variables are read. Every value is validated here,
 * once, and a bad one stops start-up with a single line naming the variable.
 */
export type Config = Readonly<{
  /** `site`: the whole server; `relay`: the monitoring relay and /healthz only (for a site exported to a static host). */
  serve: 'site' | 'relay';
  port: number;
  host: string;
  /** Origin for every absolute URL we print (canonical, hreflang, sitemap): never the Host header. */
  publicUrl: string;
  defaultLocale: string;
  /** Folder names under `locales/`, sorted, default locale first. */
  locales: readonly string[];
  localesDir: string;
  distDir: string;
  production: boolean;
  /** How long a stuck render may take before it is aborted. */
  renderTimeoutMs: number;
  logLevel: LogLevel;
  /** Worker processes (node:cluster); 1 runs the server in this process. */
  webConcurrency: number;
  /** How long SIGTERM waits for in-flight responses before closing what is left. */
  shutdownGraceMs: number;
  /** Render each page once and serve repeats from memory. */
  renderCache: boolean;
  /** Seconds a shared cache (CDN) may keep HTML and page data. */
  pageMaxAge: number;
  /** Largest search index (KB gzip) a browser downloads; above it, the search box asks the server as you type. */
  searchIndexMaxKb: number;
  /** llms-full.txt's cap (KB): past it, a locale's full text is split into per-section files. */
  llmsFullMaxKb: number;
  /** Proxy hops to trust for X-Forwarded-For/-Proto; 0 trusts none. */
  trustProxy: number;
  server: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxHeaderSize: number };
  sentry: SentryConfig | null;
  monitoring: { path: string; maxBytes: number };
  /**
   * EDIT_URL: where a page's source is edited, `{path}` standing for the file's path under
   * the content folder (`de/pages/docs/install.md`); null for no "Edit this page" link.
   */
  editUrl: string | null;
  /** Pages marked `draft: true`: shown in development (`npm run dev`), left out otherwise. */
  drafts: 'show' | 'hide';
}>;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** `dsn` is the public form (no secret key, as the browser SDK writes it); `parsed` fixes where the relay sends. */
export type SentryConfig = Readonly<{ dsn: string; parsed: Dsn; environment: string; release: string | null; tracesSampleRate: number }>;

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The repository root: two levels above this file both in `src/server` and `dist/server`. */
export const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const port = readPort(env);
  const host = env.HOST?.trim() || '0.0.0.0';
  const localesDir = env.LOCALES_DIR ? env.LOCALES_DIR : join(ROOT_DIR, 'locales');
  const found = discoverLocales(localesDir);
  const defaultLocale = env.DEFAULT_LOCALE?.trim() || 'en';
  if (!found.includes(defaultLocale)) {
    throw new ConfigError('DEFAULT_LOCALE', `"${defaultLocale}" is not one of the locales found in ${localesDir} (${found.join(', ')})`);
  }
  const monitoringPath = readMonitoringPath(env);
  const firstSegment = monitoringPath.split('/')[1]!.toLowerCase();
  if (found.some((locale) => locale.toLowerCase() === firstSegment) || FIXED_FIRST_SEGMENTS.includes(firstSegment)) {
    throw new ConfigError('MONITORING_PATH', `"${monitoringPath}" would shadow a locale or a fixed route`);
  }
  const serve = readChoice(env, 'SERVE', ['site', 'relay'] as const, 'site');
  const sentry = readSentry(env);
  if (serve === 'relay' && !sentry) throw new ConfigError('SERVE', '"relay" runs the monitoring relay, which needs SENTRY_DSN');
  return Object.freeze({
    serve,
    port,
    host,
    publicUrl: readPublicUrl(env, port),
    defaultLocale,
    locales: [defaultLocale, ...found.filter((locale) => locale !== defaultLocale)],
    localesDir,
    // `npm run dev` points this at .dev/; production runs what `npm run build` wrote.
    distDir: env.DIST_DIR ? env.DIST_DIR : join(ROOT_DIR, 'dist'),
    production: env.NODE_ENV !== 'development',
    renderTimeoutMs: 10_000,
    logLevel: readChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    webConcurrency: readInteger(env, 'WEB_CONCURRENCY', 1, { min: 1, max: 64 }),
    shutdownGraceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, { min: 0, max: 600_000 }),
    renderCache: readChoice(env, 'RENDER_CACHE', ['on', 'off'] as const, 'on') === 'on',
    pageMaxAge: readInteger(env, 'PAGE_MAX_AGE', 300, { min: 0, max: 31_536_000 }),
    searchIndexMaxKb: readInteger(env, 'SEARCH_INDEX_MAX_KB', 80, { min: 0, max: 100_000 }),
    // 20 MB: under the per-file limit of common static hosts (Cloudflare Pages: 25 MiB).
    llmsFullMaxKb: readInteger(env, 'LLMS_FULL_MAX_KB', 20_480, { min: 1, max: 1_000_000 }),
    trustProxy: readInteger(env, 'TRUST_PROXY', 0, { min: 0, max: 10 }),
    server: {
      headersTimeoutMs: readInteger(env, 'HEADERS_TIMEOUT_MS', 15_000, { min: 100, max: 600_000 }),
      requestTimeoutMs: readInteger(env, 'REQUEST_TIMEOUT_MS', 30_000, { min: 100, max: 600_000 }),
      // Longer than the 60 s idle timeout of common load balancers, so they close first.
      keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, { min: 1000, max: 600_000 }),
      maxHeaderSize: 16_384,
    },
    sentry,
    monitoring: {
      path: monitoringPath,
      maxBytes: readInteger(env, 'MONITORING_MAX_BYTES', 5 * 1024 * 1024, { min: 1024, max: 100 * 1024 * 1024 }),
    },
    editUrl: readEditUrl(env),
    drafts: env.NODE_ENV === 'development' ? 'show' : 'hide',
  });
}

function readInteger(env: Env, name: string, fallback: number, range: { min: number; max: number }): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < range.min || Number(raw) > range.max) {
    throw new ConfigError(name, `"${raw}" is not a whole number from ${range.min} to ${range.max}`);
  }
  return Number(raw);
}

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(name, `"${raw}" is not one of ${choices.join(', ')}`);
  return raw as T;
}

function readSentry(env: Env): SentryConfig | null {
  const raw = env.SENTRY_DSN?.trim();
  if (!raw) return null;
  // Parsed here, in the primary too, so a bad DSN stops start-up once instead of
  // crashing every worker the primary then replaces.
  let parsed: Dsn;
  try {
    parsed = parseDsn(raw);
  } catch (error) {
    throw new ConfigError('SENTRY_DSN', (error as Error).message.replace(/^SENTRY_DSN: /, ''));
  }
  const rate = env.SENTRY_TRACES_SAMPLE_RATE?.trim();
  const tracesSampleRate = rate ? Number(rate) : 0.1;
  if (!(tracesSampleRate >= 0 && tracesSampleRate <= 1)) {
    throw new ConfigError('SENTRY_TRACES_SAMPLE_RATE', `"${rate}" is not a number from 0 to 1`);
  }
  return Object.freeze({
    // SECURITY: the page carries this to the browser: never the legacy secret key.
    dsn: dsnToString(parsed),
    parsed,
    environment: env.SENTRY_ENVIRONMENT?.trim() || 'production',
    release: env.SENTRY_RELEASE?.trim() || null,
    tracesSampleRate,
  });
}

function readMonitoringPath(env: Env): string {
  const raw = env.MONITORING_PATH?.trim();
  if (!raw) return '/monitoring';
  // One or more plain segments: it is matched exactly, and must not shadow a locale or a fixed route.
  if (!/^(\/[A-Za-z0-9_-]+)+$/.test(raw))
    throw new ConfigError('MONITORING_PATH', `"${raw}" must be a path like /monitoring (letters, digits, - and _)`);
  return raw;
}

function readEditUrl(env: Env): string | null {
  const raw = env.EDIT_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.replaceAll('{path}', 'path'));
  } catch {
    throw new ConfigError('EDIT_URL', `"${raw}" is not an absolute URL (like https://github.com/org/repo/edit/main/locales/{path})`);
  }
  // SECURITY: every page links it; only a web address, never javascript: or data:.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('EDIT_URL', 'must start with http:// or https://');
  if (!raw.includes('{path}')) throw new ConfigError('EDIT_URL', `"${raw}" has no {path} (where the page's file goes)`);
  return raw;
}

function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3000;
  // 0 asks the OS for a free port (the tests use it).
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError('PORT', `"${raw}" is not a port number (0-65535)`);
  return Number(raw);
}

function readPublicUrl(env: Env, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `"${raw}" is not an absolute URL (like https://example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_URL', 'must start with http:// or https://');
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_URL', 'must be an origin only (scheme, host and port), without path, query or credentials');
  }
  return url.origin;
}

function discoverLocales(dir: string): string[] {
  if (!existsSync(dir)) throw new ConfigError('LOCALES_DIR', `${dir} does not exist`);
  // Every folder is a locale, complete or not: one without messages.json or pages/ is
  // reported by the content check (content/load-content.ts), never skipped in silence.
  const locales = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const bad = locales.find((locale) => !isLocaleTag(locale));
  if (bad) throw new ConfigError('LOCALES_DIR', `folder "${bad}" is not a locale tag like "en" or "pt-BR"`);
  if (locales.length === 0)
    throw new ConfigError('LOCALES_DIR', `no locale folder (<locale>/messages.json and <locale>/pages/) under ${dir}`);
  return locales;
}
