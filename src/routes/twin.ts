/**
 * A page's Markdown twin (server/site/llms.ts serves it): its path plus `.md`; a locale's
 * home (`/de`) has `/de/index.md`. Shared: the server lists and serves twins by it, and
 * the "Copy page as Markdown" button fetches one.
 */
export function twinPath(pagePath: string, locale: string): string {
  return pagePath === `/${locale}` ? `${pagePath}/index.md` : `${pagePath}.md`;
}
