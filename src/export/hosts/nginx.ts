import { ATOM_TYPE } from '../../routes/feed.ts';
import { ExportError, fileForPath } from '../files.ts';
import type { HostTables } from './tables.ts';

/**
 * `nginx.conf`: one `server` block (with the `map`s it needs) serving the exported
 * folder as the polysite server answers: `/x` from `x.html`, the canonical-form
 * redirects (locale case, trailing slash), `/` negotiated from the locale cookie and
 * Accept-Language, each locale's not-found page, the security headers and cache policy
 * on every response, and (with `--relay`) MONITORING_PATH proxied to a `SERVE=relay`
 * process. Goes inside `http { }`, which must include mime.types (nginx's default
 * configuration does).
 */
export function nginxConf(tables: HostTables, { listen = '8080' }: { listen?: string } = {}): string {
  const { locales, defaultLocale, policy, monitoring } = tables;
  const prefixes = locales.join('|');
  // Longer tags first: `zh-Hant` must win over `zh`.
  const byLength = [...locales].sort((a, b) => b.length - a.length);
  const headers = (cacheControl: string, indent = '        ') =>
    [...tables.headers, ['Cache-Control', cacheControl] as const].map(
      ([name, value]) => `${indent}add_header ${name} ${quoteValue(value)} always;`,
    );

  const out: string[] = [
    '# Written by `npm run export` from the tables the polysite server uses (src/server/http/security-headers.ts,',
    '# src/server/http/cache-policy.ts, the locales). Put it inside `http { }` (which includes mime.types), and set',
    '# `root` to wherever this folder is served from.',
    '',
    "# `/` goes to the visitor's language: the language switcher's cookie, else the first language of",
    "# Accept-Language that is one of ours (the server weighs every language's q; nginx's map reads the first).",
    'map $http_accept_language $polysite_accept_locale {',
    `    default ${defaultLocale};`,
    ...byLength.map((locale) => `    ${quote(`~*^\\s*${locale}(?:[-_;,\\s]|$)`)} ${locale};`),
    '}',
    'map $cookie_locale $polysite_locale {',
    '    default $polysite_accept_locale;',
    ...locales.map((locale) => `    ${quote(`~*^${locale}$`)} ${locale};`),
    '}',
    '',
    '# The canonical form, as the server redirects to it (308), from the raw request (still percent-encoded):',
    '# a locale prefix in the wrong case, then a trailing slash. Targets always start with /<locale>.',
    'map $request_uri $polysite_recased {',
    '    default "";',
    `    ${quote(`~^/(?:${prefixes})(?:[/?]|$)`)} "";`,
    ...locales.map(
      (locale) =>
        `    ${quote(`~*^/${locale}(?<polysite_rest_${varName(locale)}>[/?].*)?$`)} "/${locale}$polysite_rest_${varName(locale)}";`,
    ),
    '}',
    'map $request_uri $polysite_slashless {',
    '    default "";',
    `    ${quote(`~^(?<polysite_kept>/(?:${prefixes})(?:/[^?]*?)?)/+(?<polysite_query>\\?.*)?$`)} "$polysite_kept$polysite_query";`,
    '}',
    '',
    'server {',
    `    listen ${listen};`,
    `    root ${quote(tables.root)};`,
    '    charset utf-8;',
    '    charset_types text/plain text/xml application/xml application/json;',
    '    gzip on;',
    '    gzip_types text/css text/plain text/xml application/xml application/json application/javascript image/svg+xml;',
    // Location headers stay paths on this origin, as the server's.
    '    absolute_redirect off;',
    '    error_page 404 /404.html;',
    '',
    // For the 308s just below, answered before any location is chosen: every location
    // lists its own headers, so these reach only those redirects.
    ...headers(policy.permanentRedirect, '    '),
    '    if ($polysite_recased) {',
    '        return 308 $polysite_recased;',
    '    }',
    '    if ($polysite_slashless) {',
    '        return 308 $polysite_slashless;',
    '    }',
    '',
    '    # add_header in a location replaces every inherited one: each location lists them all.',
    '    location = / {',
    ...headers(policy.negotiated),
    '        add_header Vary "Accept-Language, Cookie" always;',
    '        return 302 /$polysite_locale$is_args$args;',
    '    }',
    '    location /assets/ {',
    ...headers(policy.asset),
    '        try_files $uri =404;',
    '    }',
    '    location /_data/ {',
    ...headers(policy.page),
    '        try_files $uri =404;',
    '    }',
    '    location = /404.html {',
    ...headers(policy.notFound),
    '    }',
  ];
  // A page at its default locale's path in a locale that localized it: to its path there, as the server (308).
  for (const { from, to } of tables.moved) {
    out.push(
      `    location = ${quote(`/${fileForPath(from)}`)} {`,
      ...headers(policy.permanentRedirect),
      `        return 308 ${quote(`${to.replaceAll('$', '%24')}$is_args$args`)};`,
      '    }',
    );
  }
  // A feed is `application/atom+xml`, as the server says, not the XML its extension would make it.
  for (const path of tables.feeds) {
    out.push(
      // nginx matches the decoded path.
      `    location = ${quote(`/${fileForPath(path)}`)} {`,
      ...headers(policy.page),
      '        types { }',
      `        default_type ${ATOM_TYPE};`,
      `        charset_types ${ATOM_TYPE};`,
      '    }',
    );
  }
  for (const locale of locales) {
    out.push(
      `    location /${locale}/ {`,
      ...headers(policy.page),
      `        error_page 404 /${locale}/404.html;`,
      '        try_files $uri $uri.html =404;',
      '    }',
      `    location = /${locale}/404.html {`,
      ...headers(policy.notFound),
      '    }',
    );
  }
  out.push('    location / {', ...headers(policy.page), '        try_files $uri $uri.html =404;', '    }');
  const relay = [
    `    location = ${monitoring.path} {`,
    `        proxy_pass ${monitoring.relay ? new URL(monitoring.relay).origin : 'http://127.0.0.1:3001'};`,
    '        proxy_ssl_server_name on;',
    '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    `        client_max_body_size ${monitoring.maxBytes};`,
    '    }',
  ];
  out.push(
    '',
    `    # Browser error reports, same-origin, to a SERVE=relay process (run it with TRUST_PROXY=1).`,
    ...(monitoring.relay ? relay : relay.map((line) => `    #${line.slice(4)}`)),
    '}',
  );
  return `${out.join('\n')}\n`;
}

/** A double-quoted nginx string (nginx reads `\\` and `\"` in one back; other escapes it keeps as they are). */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A header value: `$` would start a variable, and nginx has no escape for it. */
function quoteValue(value: string): string {
  if (value.includes('$')) throw new ExportError(`nginx.conf: a header value with $ cannot be written: ${value}`);
  return quote(value);
}

function varName(locale: string): string {
  return locale.replace(/-/g, '_').toLowerCase();
}
