import type { SitePaths } from '../content/paths.ts';
import { escapeHtml } from '../escape-html.ts';
import type { PageStore } from '../pages/page-store.ts';

/**
 * Every page in every locale that really translates it, with `xhtml:link`
 * alternates for those locales. A fallback (the default locale's text served in
 * another locale) is a copy: it is not listed. Built once at start-up; origin
 * from PUBLIC_URL; paths localized and percent-encoded.
 */
export function buildSitemap(store: PageStore, paths: SitePaths, publicUrl: string): string {
  const urls: string[] = [];
  for (const entry of store.entries()) {
    const { locale, key, path, translated, archived } = entry;
    // Only the latest release's docs: an older version's page is reachable, but not offered to crawlers.
    // (Asked first: an entry's `unlisted` and `lastUpdated` read its page.)
    if (archived || !translated.includes(locale) || entry.unlisted) continue;
    const { lastUpdated } = entry;
    // The same alternates as the page's head: each real translation, and x-default when the default locale has it.
    const hreflangs = translated.includes(paths.defaultLocale) ? [...translated, 'x-default'] : translated;
    const alternates = hreflangs
      .map((other) => {
        const href = publicUrl + paths.pathOf(other === 'x-default' ? paths.defaultLocale : other, key);
        return `<xhtml:link rel="alternate" hreflang="${other}" href="${escapeHtml(href)}"/>`;
      })
      .join('');
    const lastmod = lastUpdated ? `<lastmod>${escapeHtml(lastUpdated)}</lastmod>` : '';
    urls.push(`<url><loc>${escapeHtml(publicUrl + path)}</loc>${lastmod}${alternates}</url>`);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    urls.join('\n') +
    '\n</urlset>\n'
  );
}

export function buildRobots(publicUrl: string): string {
  return `User-agent: *\nAllow: /\nSitemap: ${publicUrl}/sitemap.xml\n`;
}
