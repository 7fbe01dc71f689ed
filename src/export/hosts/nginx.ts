import { ATOM_TYPE } from '../../routes/feed.ts';
import { ExportError, fileForPath } from '../files.ts';
import { encodedNfd, type HostTables } from './tables.ts';
import { MARKDOWN_TYPE } from '../../server/site/llms.ts';

/**
 * nginx, in two files the operator includes from their own configuration, which keeps
 * what is theirs (the address, the names, TLS, the folder the export was copied to):
 *
 *     http {
 *         include mime.types;
 *         include /etc/nginx/polysite/nginx-http.conf;
 *         server {
 *             listen 443 ssl; server_name example.com; ...
 *             root /srv/polysite;
 *             include /etc/nginx/polysite/nginx-server.conf;
 *         }
 *     }
 *
 * Together they answer as the polysite server does: `/x` from `x.html` and nothing else
 * (`/x.html` is a 404, as on the server), one 308 to a page's canonical path from any other
 * spelling of it (locale case, trailing or doubled slashes, lower-case or missing escapes, the
 * default locale's path of a localized page), `/` and paths outside every locale negotiated
 * (302, by the locale cookie and Accept-Language), each locale's not-found page, and the
 * server's security headers and cache policy on every answer, each once (nginx's own errors
 * included: `no-store`, as the server's).
 */
export const NGINX_HTTP_FILE = 'nginx-http.conf';
export const NGINX_SERVER_FILE = 'nginx-server.conf';

/** The `http { }` part: the maps the server block reads (nginx allows them nowhere else). */
export function nginxHttpConf(tables: HostTables): string {
  const { locales, defaultLocale, policy } = tables;
  // Longer tags first: `zh-Hant` must win over `zh`.
  const byLength = [...locales].sort((a, b) => b.length - a.length);
  const hstsValue = tables.hsts[1];
  // Decoded path -> canonical path (percent-encoded; `$` escaped, as it would start a variable).
  // A page's path spelled with decomposed letters (NFD) is another spelling of it too.
  const decomposed = tables.pages.flatMap((path) => {
    const nfd = encodedNfd(path);
    return nfd === null ? [] : [[nfd, path] as const];
  });
  const entries = [
    ...tables.pages.map((path) => [path, path] as const),
    ...tables.moved.map(({ from, to }) => [from, to] as const),
    ...decomposed,
  ].map(([from, to]) => [decodePath(from), escapeDollar(to)] as const);
  const out = [
    `# Written by \`npm run export\`: include it inside \`http { }\`, before the server block that includes ${NGINX_SERVER_FILE}.`,
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
    '# The path as the visitor sent it (still percent-encoded), and the one nginx decoded (slashes merged).',
    'map $request_uri $polysite_raw {',
    `    ${quote('~^(?<polysite_raw_path>[^?]*)')} $polysite_raw_path;`,
    '}',
    '# Where the canonical form is built from: the raw path when it holds an escape or a non-ASCII byte',
    "# (nginx's decoded one could not go into a Location), else nginx's, whose empty segments are merged.",
    'map $polysite_raw $polysite_source {',
    `    ${quote('~[%\\x80-\\xff]')} $polysite_raw;`,
    '    default $uri;',
    '}',
    '',
    '# A locale prefix in the canonical case, trailing slashes cut: from the source (a Location) and from the',
    '# decoded path (a key of $polysite_page). Empty: the path is under no locale.',
    ...(['source', 'uri'] as const).flatMap((from) => [
      `map ${from === 'source' ? '$polysite_source' : '$uri'} $polysite_fixed_${from} {`,
      '    default "";',
      ...byLength.map(
        (locale) =>
          `    ${quote(`~*^/${locale}(?<polysite_${from}_${varName(locale)}>/.*?[^/])?/*$`)} "/${locale}$polysite_${from}_${varName(locale)}";`,
      ),
      '}',
    ]),
    '',
    "# Every page, and the default locale's path of a page a locale localized, by its decoded path: its canonical",
    "# path, then the key again: nginx matches a map's strings in any case, the server a page's path in its own.",
    'map $polysite_fixed_uri $polysite_page_entry {',
    '    default "";',
    ...entries.map(([key, to]) => `    ${quote(key)} ${quote(`${to} ${key}`)};`),
    '}',
    'map "$polysite_page_entry|$polysite_fixed_uri" $polysite_page {',
    '    default "";',
    `    ${quote('~^(?<polysite_found>\\S+) (.*)\\|\\2$')} $polysite_found;`,
    '}',
    '',
    "# One 308 to the canonical path: a page's, else the fixed form of a path under a locale; none if it is the path sent.",
    'map "$polysite_page $polysite_fixed_source $polysite_raw" $polysite_canonical {',
    '    default "";',
    `    ${quote('~^(\\S+) \\S* \\1$')} "";`,
    `    ${quote('~^(\\S+) ')} $1;`,
    `    ${quote('~^ (\\S+) \\1$')} "";`,
    `    ${quote('~^ (\\S+) ')} $1;`,
    '}',
    '',
    '# A path under no locale goes to the same path under the negotiated one, or to the page there (`/about` -> `/de/ueber-uns`).',
    'map $uri $polysite_trimmed_uri {',
    `    ${quote('~^(?<polysite_trimmed>/.*?)/*$')} $polysite_trimmed;`,
    '}',
    'map $polysite_source $polysite_trimmed_source {',
    `    ${quote('~^(?<polysite_kept>/.*?)/*$')} $polysite_kept;`,
    '}',
    'map "/$polysite_locale$polysite_trimmed_uri" $polysite_negotiated_entry {',
    '    default "";',
    ...entries.map(([key, to]) => `    ${quote(key)} ${quote(`${to} ${key}`)};`),
    '}',
    'map "$polysite_negotiated_entry|/$polysite_locale$polysite_trimmed_uri" $polysite_negotiated {',
    '    default "/$polysite_locale$polysite_trimmed_source";',
    `    ${quote('~^(?<polysite_there>\\S+) (.*)\\|\\2$')} $polysite_there;`,
    '}',
    '',
    "# Cache-Control by status, as the server's: nginx's own errors (400, 413, 414...) are never stored.",
    'map $status $polysite_cache {',
    '    default "no-store";',
    ...['200', '206', '304'].map((status) => `    ${status} ${quoteValue(policy.page)};`),
    `    404 ${quoteValue(policy.notFound)};`,
    `    302 ${quoteValue(policy.negotiated)};`,
    `    308 ${quoteValue(policy.permanentRedirect)};`,
    '}',
    'map $status $polysite_asset_cache {',
    '    default "no-store";',
    ...['200', '206', '304'].map((status) => `    ${status} ${quoteValue(policy.asset)};`),
    '}',
    '# The server sends HSTS over https only: so does nginx (an empty value sends no header).',
    'map $scheme $polysite_hsts {',
    '    default "";',
    `    https ${quoteValue(hstsValue)};`,
    '}',
    "# A page's URL answers its Markdown twin to a request that prefers text/markdown (site/llms.ts). The server",
    "# weighs Accept's q values; nginx's map takes text/markdown when it comes before any text/html and is not q=0.",
    'map $http_accept $polysite_markdown {',
    '    default "";',
    `    ${quote('~*^(?:(?!text/html).)*text/markdown(?!\\s*;\\s*q=0(?:\\.0*)?\\s*(?:,|$))')} 1;`,
    '}',
    'map $polysite_markdown $polysite_page_file {',
    '    default .html;',
    '    1 .md;',
    '}',
    'map $polysite_markdown $polysite_home_file {',
    '    default .html;',
    '    1 /index.md;',
    '}',
    "# A page's answers, HTML or Markdown, vary by Accept (an empty value sends no header).",
    'map $status $polysite_page_vary {',
    '    default "";',
    '    200 Accept;',
    '    304 Accept;',
    '}',
    '# The redirects varied by language, as the server says.',
    'map $status $polysite_vary {',
    '    default "";',
    '    302 "Accept-Language, Cookie";',
    '}',
  ];
  return `${out.join('\n')}\n`;
}

/** The `server { }` part: include it after your own `listen`, `server_name`, TLS and `root` lines. */
export function nginxServerConf(tables: HostTables): string {
  const { locales, defaultLocale, monitoring, build } = tables;
  const headers = (cache: string, indent = '        ') => [
    ...tables.always.map(([name, value]) => `${indent}add_header ${name} ${quoteValue(value)} always;`),
    `${indent}add_header ${tables.hsts[0]} $polysite_hsts always;`,
    `${indent}add_header Cache-Control ${cache} always;`,
  ];
  const out: string[] = [
    `# Written by \`npm run export\`: include it inside your \`server { }\`, after \`root\` (where this folder is), with`,
    `# ${NGINX_HTTP_FILE} included in \`http { }\` (which must include mime.types, as nginx's default configuration does).`,
    '',
    '    charset utf-8;',
    `    charset_types text/plain text/xml application/xml application/json ${ATOM_TYPE};`,
    // Vary on everything compressible, compressed or not; also behind a proxy (Via), as the server compresses.
    '    gzip on;',
    '    gzip_vary on;',
    '    gzip_proxied any;',
    `    gzip_types text/css text/plain text/xml application/xml application/json application/javascript text/javascript image/svg+xml ${ATOM_TYPE};`,
    // Location headers stay paths on this origin, as the server's.
    '    absolute_redirect off;',
    '',
    // For the 308s just below and nginx's own refusals (400, 413, 414), answered before any location
    // is chosen: every location lists its own headers, so these reach only those answers.
    ...headers('$polysite_cache', '    '),
    '    if ($polysite_canonical) {',
    '        return 308 $polysite_canonical$is_args$args;',
    '    }',
    '',
    '    # add_header in a location replaces every inherited one: each location lists them all.',
    '    # `/` and paths under no locale: negotiated.',
    '    location / {',
    ...headers('$polysite_cache'),
    '        add_header Vary $polysite_vary always;',
    '        return 302 $polysite_negotiated$is_args$args;',
    '    }',
    '    location = / {',
    ...headers('$polysite_cache'),
    '        add_header Vary $polysite_vary always;',
    '        return 302 /$polysite_locale$is_args$args;',
    '    }',
    '    location ^~ /assets/ {',
    ...headers('$polysite_asset_cache'),
    // The types the server gives them (mime.types would make a script application/javascript).
    '        types {',
    ...ASSET_TYPES.map(([type, extensions]) => `            ${type} ${extensions};`),
    '        }',
    `        charset_types ${ASSET_TYPES.filter(([, , text]) => text)
      .map(([type]) => type)
      .join(' ')};`,
    '        try_files $uri =404;',
    '    }',
    `    location ^~ /_data/${build}/ {`,
    ...headers('$polysite_cache'),
    `        error_page 404 /${defaultLocale}/404.html;`,
    '        try_files $uri =404;',
    '    }',
    "    # Another build's page data: the server's 409, which sends the client to the document.",
    '    location ^~ /_data/ {',
    ...headers('no-store'),
    '        default_type "application/json; charset=utf-8";',
    `        return 409 ${quote(JSON.stringify({ stale: true, build }).replaceAll('$', ''))};`,
    '    }',
    // The server's types: nginx's mime.types would call the sitemap text/xml.
    '    location = /sitemap.xml {',
    ...headers('$polysite_cache'),
    '        types { }',
    '        default_type application/xml;',
    '    }',
    '    location = /robots.txt {',
    ...headers('$polysite_cache'),
    '    }',
    '    location = /llms.txt {',
    ...headers('$polysite_cache'),
    '    }',
  ];
  // A feed is `application/atom+xml`, as the server says, not the XML its extension would make it.
  for (const path of tables.feeds) {
    out.push(
      // nginx matches the decoded path.
      `    location = ${quote(decodePath(path))} {`,
      ...headers('$polysite_cache'),
      '        types { }',
      `        default_type ${ATOM_TYPE};`,
      '    }',
    );
  }
  for (const locale of locales) {
    out.push(
      // `/de` from de.html; under it, `/de/x` from de/x.html only: `/de/x.html` is a 404, as on the server.
      `    location = /${locale} {`,
      ...headers('$polysite_cache'),
      '        add_header Vary $polysite_page_vary always;',
      ...PAGE_TYPES,
      `        error_page 404 /${locale}/404.html;`,
      `        try_files /${locale}$polysite_home_file =404;`,
      '    }',
      `    location ^~ /${locale}/ {`,
      ...headers('$polysite_cache'),
      '        add_header Vary $polysite_page_vary always;',
      ...PAGE_TYPES,
      `        error_page 404 /${locale}/404.html;`,
      // A page without a Markdown twin (a long section's numbered listing page) is its HTML whatever Accept says, as on the server.
      '        try_files $uri$polysite_page_file $uri.html =404;',
      // Each page's Markdown twin and the locale's llms.txt files (site/llms.ts), as the server types them.
      '        location ~ \\.md$ {',
      ...headers('$polysite_cache', '            '),
      '            types { }',
      `            default_type "${MARKDOWN_TYPE}";`,
      '            try_files $uri =404;',
      '        }',
      '        location ~ /llms(-full)?\\.txt$ {',
      ...headers('$polysite_cache', '            '),
      '            try_files $uri =404;',
      '        }',
      '    }',
      // Asked for by name, it is a 404 too (the server has no page at that path): with itself as the page.
      `    location = /${locale}/404.html {`,
      ...headers('$polysite_cache'),
      `        error_page 404 /${locale}/404.html;`,
      '        internal;',
      '    }',
    );
  }
  out.push('', '    # Browser error reports, same-origin, to a SERVE=relay process (run it with TRUST_PROXY=1).');
  if (monitoring.relay) {
    out.push(
      `    location = ${monitoring.path} {`,
      // The relay sends its own security headers and Cache-Control: they go once, as it sent them.
      `        proxy_pass ${monitoring.relay};`,
      '        proxy_ssl_server_name on;',
      '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      '        proxy_set_header X-Forwarded-Proto $scheme;',
      `        client_max_body_size ${monitoring.maxBytes};`,
      // Any add_header here keeps the server-level ones out; this one adds nothing (an empty value sends no header).
      '        add_header X-Polysite-Relay "" always;',
      '    }',
    );
  } else {
    out.push(
      '    # None was given to `npm run export -- --relay ORIGIN`: the path is a 404, as on a server without SENTRY_DSN.',
      `    location = ${monitoring.path} {`,
      ...headers('no-store'),
      '        return 404;',
      '    }',
    );
  }
  return `${out.join('\n')}\n`;
}

/** A page's two files, its HTML and its Markdown twin, and the locale's llms files, typed as the server types them. */
const PAGE_TYPES = [
  '        types {',
  '            text/html html;',
  '            text/markdown md;',
  '            text/plain txt;',
  '        }',
  '        charset_types text/html text/markdown text/plain;',
];

/** Content types of the files under /assets/, as the server sends them; `true`: with `charset=utf-8`. */
const ASSET_TYPES: readonly (readonly [string, string, boolean?])[] = [
  ['text/javascript', 'js mjs', true],
  ['text/css', 'css', true],
  ['application/json', 'json map', true],
  ['image/svg+xml', 'svg', false],
  ['image/png', 'png', false],
  ['image/jpeg', 'jpg jpeg', false],
  ['image/gif', 'gif', false],
  ['image/webp', 'webp', false],
  ['image/avif', 'avif', false],
  ['image/x-icon', 'ico', false],
  ['font/woff2', 'woff2', false],
  ['font/woff', 'woff', false],
  ['text/plain', 'txt', true],
];

function decodePath(path: string): string {
  return `/${fileForPath(path)}`;
}

/** A double-quoted nginx string (nginx reads `\\` and `\"` in one back; other escapes it keeps as they are). */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `$` would start a variable in a map value; in a path it is written escaped (the same URL). */
function escapeDollar(path: string): string {
  return path.replaceAll('$', '%24');
}

/** A header value: `$` would start a variable, and nginx has no escape for it. */
function quoteValue(value: string): string {
  if (value.includes('$')) throw new ExportError(`nginx: a header value with $ cannot be written: ${value}`);
  return quote(value);
}

function varName(locale: string): string {
  return locale.replace(/-/g, '_').toLowerCase();
}
