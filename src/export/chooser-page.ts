import type { SiteIntl } from '../i18n/intl.ts';
import type { PageData } from '../routes/types.ts';
import type { Manifest } from '../server/site/manifest.ts';
import { escapeHtml } from '../server/escape-html.ts';
import { ExportError } from './files.ts';

/**
 * The root of a static export (`/`, index.html): a link to each locale's home,
 * in that locale's own language, and the hreflang set of the default home page.
 * No inline script (the server's CSP): the chooser script (src/client/locale-chooser.ts)
 * sends the visitor on as the server's negotiation would; without JavaScript the
 * visitor picks a link.
 */
export function chooserPage({ home, intl, manifest }: { home: PageData; intl: SiteIntl; manifest: Manifest }): string {
  if (!manifest.chooser) throw new ExportError('dist/manifest.json names no chooser script: run `npm run build` again');
  const attr = escapeHtml;
  const siteName = intl.formatMessage({ id: 'site.name' });
  const alternates = home.head.alternates.map(
    ({ hreflang, href }) => `<link rel="alternate" hreflang="${attr(hreflang)}" href="${attr(href)}">`,
  );
  const links = home.locales.map(
    ({ locale, name, path, dir }) =>
      `<li><a href="${attr(path)}" hreflang="${attr(locale)}" lang="${attr(locale)}" dir="${dir}">${escapeHtml(name)}</a></li>`,
  );
  return [
    `<!DOCTYPE html><html lang="${attr(home.locale)}" dir="${home.dir}"><head>`,
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(siteName)}</title>`,
    `<meta name="description" content="${attr(home.head.description)}">`,
    ...alternates,
    `<link rel="icon" href="${attr(manifest.icon)}" type="image/svg+xml">`,
    // The pages' critical CSS, which the CSP allows by its hash (the deferred rest is not needed here).
    `<style>${manifest.criticalCss}</style>`,
    `<script type="module" src="${attr(manifest.chooser)}"></script>`,
    '</head><body>',
    `<main class="chooser"><h1>${escapeHtml(siteName)}</h1><ul>${links.join('')}</ul></main>`,
    '</body></html>\n',
  ].join('');
}
