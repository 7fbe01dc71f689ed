import type { HeadTag, PageData } from '../routes/types.ts';

/**
 * After a client navigation, make <html> and <head> what a full load of the
 * URL would give: lang/dir, the title, and the per-page elements, rewritten in
 * the server's order (description, canonical or robots, hreflang, feed, Open
 * Graph and Twitter, structured data). Its inverse, readHead (read-head.ts), is in the first
 * load; this is the navigator's alone.
 */
export function updateHead(page: PageData): void {
  const root = document.documentElement;
  const { head } = page;
  root.lang = page.locale;
  root.dir = page.dir;
  document.title = head.title;
  // Every element that depends on the page sits between the title and the icon
  // (src/server/pages/document-shell.ts writes them there, and nothing else): remove them all.
  const anchor = document.head.querySelector('link[rel=icon]')!;
  while (anchor.previousElementSibling!.tagName !== 'TITLE') anchor.previousElementSibling!.remove();
  const add = (name: string, attributes: HeadTag) => {
    const element = document.createElement(name);
    for (const key in attributes) element.setAttribute(key, attributes[key]!);
    return document.head.insertBefore(element, anchor);
  };
  add('meta', { name: 'description', content: head.description });
  if (head.canonical) add('link', { rel: 'canonical', href: head.canonical });
  else add('meta', { name: 'robots', content: 'noindex' });
  for (const alternate of head.alternates) add('link', { rel: 'alternate', ...alternate });
  for (const link of head.links) add('link', link);
  for (const meta of head.meta) add('meta', meta);
  if (head.jsonLd) add('script', { type: 'application/ld+json' }).textContent = head.jsonLd;
}
