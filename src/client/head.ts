import type { PageData } from '../routes/types.ts';

/**
 * After a client navigation, make <html> and <head> what a full load of the
 * URL would give: lang/dir, title, description, canonical, hreflang, robots.
 */
export function updateHead(page: PageData): void {
  const root = document.documentElement;
  root.lang = page.locale;
  root.dir = page.dir;
  document.title = page.head.title;
  setMeta('description', page.head.description);
  setMeta('robots', page.head.canonical === null ? 'noindex' : null);

  for (const link of document.head.querySelectorAll('link[rel="canonical"], link[rel="alternate"][hreflang]')) link.remove();
  const anchor = document.head.querySelector('link[rel="icon"]');
  const links: HTMLLinkElement[] = [];
  if (page.head.canonical) links.push(makeLink({ rel: 'canonical', href: page.head.canonical }));
  for (const alternate of page.head.alternates)
    links.push(makeLink({ rel: 'alternate', hreflang: alternate.hreflang, href: alternate.href }));
  for (const link of links) document.head.insertBefore(link, anchor);
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

function makeLink(attributes: Record<string, string>): HTMLLinkElement {
  const link = document.createElement('link');
  for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
  return link;
}
