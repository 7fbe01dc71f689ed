import type { Head, HeadTag } from '../routes/types.ts';

/**
 * The inverse of updateHead (head.ts, the navigator's): the page's head as the document
 * holds it (the embedded page data leaves it out, see serializePayload), read from the same
 * elements. A module of its own: the first load needs this half only.
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
