import type { PageStore } from './page-store.ts';

/**
 * Every served page's path by locale and slug (the page's key), as the store
 * serves it (localized, percent-encoded): for what names other pages from
 * outside them (feeds, breadcrumbs). Made from `store.entries()`, which makes no
 * page data.
 */
export function pagePaths(store: PageStore): (locale: string, slug: string) => string | undefined {
  const paths = new Map<string, string>();
  for (const { locale, slug, path } of store.entries()) paths.set(`${locale}\0${slug}`, path);
  return (locale, slug) => paths.get(`${locale}\0${slug}`);
}
