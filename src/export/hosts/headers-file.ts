import { ATOM_CONTENT_TYPE } from '../../routes/feed.ts';
import { fileForPath } from '../files.ts';
import { cacheRules, type HostTables } from './tables.ts';

/** The sitemap's type as the server sends it (http/app.ts); test/export/host-files.test.ts compares them. */
const SITEMAP_CONTENT_TYPE = 'application/xml; charset=utf-8';

/**
 * `_headers`, read by Netlify and Cloudflare Pages: the security headers on every
 * path, and each kind of path's Cache-Control. The rules never set one header
 * twice for a path (both hosts would join the values), so Cache-Control is given
 * per kind of path, not on `/*`.
 */
export function headersFile(tables: HostTables): string {
  const lines = [
    '# Written by `npm run export` from the tables the polysite server uses (src/server/http/security-headers.ts,',
    '# src/server/http/cache-policy.ts): the same headers as the server. For Netlify and Cloudflare Pages.',
    '/*',
    ...tables.headers.map(([name, value]) => `  ${name}: ${value}`),
    // The root chooser: a plain page.
    '/',
    `  Cache-Control: ${tables.policy.page}`,
  ];
  for (const { path, match, cacheControl } of cacheRules(tables)) {
    const patterns = match === 'exact' ? [path] : [path, `${path}/*`];
    // Nothing is served at the bare /assets or /_data.
    for (const pattern of path === '/assets' || path === '/_data' ? [`${path}/*`] : patterns) {
      lines.push(pattern, `  Cache-Control: ${cacheControl}`);
    }
  }
  // Hosts would call a feed `application/xml` by its extension, and the sitemap `text/xml`; the server says what each is.
  for (const path of tables.feeds) lines.push(`/${fileForPath(path)}`, `  Content-Type: ${ATOM_CONTENT_TYPE}`);
  lines.push('/sitemap.xml', `  Content-Type: ${SITEMAP_CONTENT_TYPE}`);
  // Without a relay the monitoring path is a 404, never stored, as on the server (a relay sends its own headers).
  if (!tables.monitoring.relay) lines.push(tables.monitoring.path, `  Cache-Control: ${tables.policy.never}`);
  return `${lines.join('\n')}\n`;
}
