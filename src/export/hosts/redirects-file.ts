import type { HostTables } from './tables.ts';

/**
 * `_redirects`, for Netlify: the root by language, the common miscased locale
 * prefixes, the default paths of localized pages, each locale's not-found page, and (with `--relay`) the monitoring path
 * proxied to a `SERVE=relay` process. First match wins, so the order matters.
 * Netlify matches paths case-sensitively and treats `/x/` as `/x`, so trailing
 * slashes need no rule. (Cloudflare Pages reads this file too and skips what it
 * does not support: the language, cookie and proxy rules; see the deploy docs.)
 */
export function redirectsFile(tables: HostTables): string {
  const { locales, monitoring } = tables;
  const lines = ['# Written by `npm run export`. Netlify (Cloudflare Pages keeps the rules it supports).'];
  if (monitoring.relay) {
    lines.push(
      '',
      '# Browser error reports, same-origin, to the SERVE=relay process.',
      `${monitoring.path}  ${new URL(monitoring.path, monitoring.relay).href}  200!`,
    );
  }
  lines.push(
    '',
    "# The root, in the visitor's language, as the server negotiates it: the language switcher's choice",
    "# (the locale cookie) first: the chooser page's script follows it. Then the browser's language;",
    '# anyone else gets the chooser page (index.html), which picks the best of their languages or the default.',
    '/  /index.html  200!  Cookie=locale',
    ...locales.map((locale) => `/  /${locale}  302!  Language=${locale.toLowerCase()}`),
    '',
    '# A locale prefix in the wrong case: to the canonical one (the server answers 308).',
  );
  for (const locale of locales) {
    for (const form of miscased(locale)) lines.push(`/${form}  /${locale}  301`, `/${form}/*  /${locale}/:splat  301`);
  }
  if (tables.moved.length) {
    lines.push('', "# A page at its default locale's path in a locale that localized it: to its path there (the server answers 308).");
    for (const { from, to } of tables.moved) lines.push(`${from}  ${to}  301`);
  }
  lines.push('', "# A missing page under a locale: that locale's not-found page (elsewhere Netlify serves /404.html).");
  for (const locale of locales) lines.push(`/${locale}/*  /${locale}/404.html  404`);
  return `${lines.join('\n')}\n`;
}

/** `EN`, `En` for `en`; `PT-BR`, `pt-br`, `Pt-br` for `pt-BR`: the forms people and old links use. */
export function miscased(locale: string): string[] {
  const lower = locale.toLowerCase();
  const forms = new Set([locale.toUpperCase(), lower, lower.charAt(0).toUpperCase() + lower.slice(1)]);
  forms.delete(locale);
  return [...forms];
}
