/**
 * The paths the server answers itself, before any locale logic: app.ts mounts
 * them, and config.ts refuses a MONITORING_PATH whose first segment would shadow one.
 * Patterns are @koa/router's (path-to-regexp 8: `{*name}` is the rest of the path).
 */
export const FIXED_ROUTES = {
  assets: '/assets/{*file}',
  pageData: '/_data/{*rest}',
  health: '/healthz',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
} as const;

/** `assets`, `_data`, `healthz`, `sitemap.xml`, `robots.txt`. */
export const FIXED_FIRST_SEGMENTS: readonly string[] = Object.values(FIXED_ROUTES).map((pattern) => pattern.split('/')[1]!);
