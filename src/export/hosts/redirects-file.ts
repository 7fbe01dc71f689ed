import { EXPORT_MARKER } from '../files.ts';
import { NGINX_HTTP_FILE, NGINX_SERVER_FILE } from './nginx.ts';
import { encodedNfd, type HostTables } from './tables.ts';

/** Tells GitHub Pages not to run Jekyll, which would leave out `_data`. */
export const NOJEKYLL = '.nojekyll';

/**
 * `_redirects`, for Netlify: the root by language, the common miscased locale
 * prefixes, the default paths of localized pages, other Unicode spellings of page paths,
 * each locale's not-found page, paths under no locale by language, and (with `--relay`)
 * the monitoring path proxied to a `SERVE=relay` process. First match wins, so the order
 * matters; a rule without `!` yields to a file that exists.
 * Netlify matches paths case-sensitively and treats `/x/` as `/x`, so trailing
 * slashes need no rule. (Cloudflare Pages reads this file too and skips what it
 * does not support: the language, cookie and proxy rules; see the deploy docs.)
 */
export function redirectsFile(tables: HostTables): string {
  const { locales, defaultLocale, monitoring } = tables;
  // The default locale last: the rule without a condition.
  const byLanguage = (from: string, to: (locale: string) => string, status: string) => [
    ...locales
      .filter((locale) => locale !== defaultLocale)
      .map((locale) => `${from}  ${to(locale)}  ${status}  Language=${locale.toLowerCase()}`),
    `${from}  ${to(defaultLocale)}  ${status}`,
  ];
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
    '# The files beside the pages that the server does not publish (the host files, the chooser and not-found',
    '# pages by name, a locale home by its file name): paths under no locale, negotiated as the server does.',
  );
  for (const file of ['index.html', '404.html', ...locales.map((locale) => `${locale}.html`), ...HOST_FILES]) {
    lines.push(...byLanguage(`/${file}`, (locale) => `/${locale}/${file}`, '302!'));
  }
  lines.push('', '# A locale prefix in the wrong case: to the canonical one (the server answers 308).');
  for (const locale of locales) {
    for (const form of miscased(locale)) lines.push(`/${form}  /${locale}  301`, `/${form}/*  /${locale}/:splat  301`);
  }
  if (tables.moved.length) {
    lines.push('', "# A page at its default locale's path in a locale that localized it: to its path there (the server answers 308).");
    for (const { from, to } of tables.moved) lines.push(`${from}  ${to}  301`);
  }
  const decomposed = tables.pages.flatMap((path) => {
    const nfd = encodedNfd(path);
    return nfd === null ? [] : [`${nfd}  ${path}  301`];
  });
  if (decomposed.length) {
    lines.push('', '# A page path spelled with decomposed letters (NFD, as macOS may type it): to its NFC path (the server answers 308).');
    lines.push(...decomposed);
  }
  lines.push(
    '',
    "# A not-found page asked for by name is a not-found page, as on the server; a missing page under a locale gets that locale's.",
  );
  for (const locale of locales) lines.push(`/${locale}/404.html  /${locale}/404.html  404!`);
  for (const locale of locales) lines.push(`/${locale}/*  /${locale}/404.html  404`);
  lines.push(
    '',
    '# A missing asset or page data is a plain 404, as on the server.',
    '/assets/*  /404.html  404',
    '/_data/*  /404.html  404',
  );
  if (!monitoring.relay) lines.push(`${monitoring.path}  /404.html  404`);
  lines.push(
    '',
    "# Any other path is under no locale: to the same path in the visitor's language (the server also reads the locale cookie).",
    ...byLanguage('/*', (locale) => `/${locale}/:splat`, '302'),
  );
  return `${lines.join('\n')}\n`;
}

/** The files the export writes for hosts and tools, never for readers. */
const HOST_FILES = ['_headers', '_redirects', NGINX_HTTP_FILE, NGINX_SERVER_FILE, EXPORT_MARKER, NOJEKYLL];

/** `EN`, `En` for `en`; `PT-BR`, `pt-br`, `Pt-br` for `pt-BR`: the forms people and old links use. */
export function miscased(locale: string): string[] {
  const lower = locale.toLowerCase();
  const forms = new Set([locale.toUpperCase(), lower, lower.charAt(0).toUpperCase() + lower.slice(1)]);
  forms.delete(locale);
  return [...forms];
}
