import type { Head, HeadTag, PageData } from '../routes/types.ts';

/**
 * After a client navigation, make <html> and <head> what a full load of the
 * URL would give: lang/dir, the title, and the per-page elements, rewritten in
 * the server's order (description, canonical or robots, hreflang, feed, Open
 * Graph and Twitter, structured data).
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

/**
 * The inverse of updateHead: the page's head as the document holds it (the embedded
 * page data leaves it out, see serializePayload), read from the same elements.
 */
export function readHead(doc: Document): Head {
  const title = doc.head.querySelector('title');
  const head: Head = {
    title: title?.textContent ?? '',
    description: '',
    canonical: null,
    alternates: [],
    links: [],
    meta: [],
    jsonLd: null,
  };
  for (let element = title?.nextElementSibling; element && !element.matches('link[rel=icon]'); element = element.nextElementSibling) {
    const tag: HeadTag = {};
    for (const { name, value } of element.attributes) tag[name] = value;
    if (element.tagName === 'SCRIPT') head.jsonLd = element.textContent;
    else if (element.tagName !== 'LINK') {
      if (tag.name === 'description') head.description = tag.content ?? '';
      // `robots` in the canonical's place is the page's lack of one; after it, one of the page's own (an unlisted page's noindex).
      else if (tag.name !== 'robots' || head.canonical !== null) head.meta.push(tag);
    } else if (tag.rel === 'canonical') head.canonical = tag.href ?? null;
    else if (tag.rel === 'alternate' && tag.hreflang) head.alternates.push({ hreflang: tag.hreflang, href: tag.href ?? '' });
    else head.links.push(tag);
  }
  return head;
}
