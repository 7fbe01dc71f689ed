import { pagePath } from '../routes/location.ts';
import { escapeHtml } from './escape-html.ts';
import type { PageStore } from './page-store.ts';

/**
 * Every served page in every locale, with `xhtml:link` alternates only for the
 * locales that really translate it. Built once at start-up; origin from PUBLIC_URL.
 */
export function buildSitemap(store: PageStore, publicUrl: string): string {
  const urls: string[] = [];
  for (const { locale, slug, translated } of store.entries()) {
    const alternates = translated
      .map((other) => `<xhtml:link rel="alternate" hreflang="${other}" href="${escapeHtml(publicUrl + pagePath(other, slug))}"/>`)
      .join('');
    urls.push(`<url><loc>${escapeHtml(publicUrl + pagePath(locale, slug))}</loc>${alternates}</url>`);
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
