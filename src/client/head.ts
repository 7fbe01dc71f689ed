import type { HeadTag, PageData } from '../routes/types.ts';

/** What the server writes per page between the description and the icon (src/server/document.ts), besides robots. */
const PER_PAGE = 'link[rel=canonical],link[rel=alternate],meta[property],meta[name^="twitter:"],script[type="application/ld+json"]';

/**
 * After a client navigation, make <html> and <head> what a full load of the
 * URL would give: lang/dir, title, description, robots, and the per-page links,
 * meta tags and structured data, in the server's order.
 */
export function updateHead(page: PageData): void {
  const root = document.documentElement;
  const { head } = page;
  root.lang = page.locale;
  root.dir = page.dir;
  document.title = head.title;
  setMeta('description', head.description);
  setMeta('robots', head.canonical === null ? 'noindex' : null);

  for (const element of document.head.querySelectorAll(PER_PAGE)) element.remove();
  const anchor = document.head.querySelector('link[rel=icon]');
  const add = (name: string, attributes: HeadTag) => {
    const element = document.createElement(name);
    for (const key in attributes) element.setAttribute(key, attributes[key]!);
    return document.head.insertBefore(element, anchor);
  };
  if (head.canonical) add('link', { rel: 'canonical', href: head.canonical });
  for (const alternate of head.alternates) add('link', { rel: 'alternate', ...alternate });
  for (const link of head.links) add('link', link);
  for (const meta of head.meta) add('meta', meta);
  if (head.jsonLd) add('script', { type: 'application/ld+json' }).textContent = head.jsonLd;
}

function setMeta(name: string, content: string | null): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (content === null) {
    meta?.remove();
    return;
  }
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}
