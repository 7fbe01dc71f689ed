import { ATOM_CONTENT_TYPE } from '../../routes/feed.ts';
import { fileForPath } from '../files.ts';
import { cacheRules, type HostTables } from './tables.ts';

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
  // Hosts would call a feed `application/xml` by its extension; the server says what it is.
  for (const path of tables.feeds) lines.push(`/${fileForPath(path)}`, `  Content-Type: ${ATOM_CONTENT_TYPE}`);
  return `${lines.join('\n')}\n`;
}
