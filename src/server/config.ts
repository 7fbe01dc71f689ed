import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLocaleTag } from '../i18n/locales.ts';

/**
 * The only place environment variables are read. Every value is validated here,
 * once, and a bad one stops start-up with a single line naming the variable.
 */
export type Config = Readonly<{
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
}>;

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
  return Object.freeze({
    port,
    host,
    publicUrl: readPublicUrl(env, port),
    defaultLocale,
    locales: [defaultLocale, ...found.filter((locale) => locale !== defaultLocale)],
    localesDir,
    distDir: join(ROOT_DIR, 'dist'),
    production: env.NODE_ENV !== 'development',
    renderTimeoutMs: 10_000,
  });
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
  const locales = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'messages.json')))
    .map((entry) => entry.name)
    .sort();
  const bad = locales.find((locale) => !isLocaleTag(locale));
  if (bad) throw new ConfigError('LOCALES_DIR', `folder "${bad}" is not a locale tag like "en" or "pt-BR"`);
  if (locales.length === 0) throw new ConfigError('LOCALES_DIR', `no <locale>/messages.json under ${dir}`);
  return locales;
}
