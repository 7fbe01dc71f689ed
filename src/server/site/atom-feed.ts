// An Atom feed document (RFC 4287), as text. Pure: the ids, titles and URLs
// come in ready; this file only knows Atom and how to write XML safely.

import { escapeHtml } from '../escape-html.ts';

export type FeedEntry = {
  id: string;
  title: string;
  /** Absolute URL of the post. */
  url: string;
  summary: string;
  /** `YYYY-MM-DD`; a post without one has no `published`. */
  published?: string | undefined;
  /** `YYYY-MM-DD`: the last real change. */
  updated: string;
  author?: string | undefined;
  /** Set when the post's text is in another language than the feed (an untranslated post). */
  language?: string | undefined;
};

export type FeedInput = {
  id: string;
  title: string;
  subtitle: string;
  /** The feed's language (`xml:lang`). */
  language: string;
  /** Absolute URLs: the feed itself and the blog listing. */
  self: string;
  alternate: string;
  /** Named as the feed's author: entries without an author of their own inherit it (RFC 4287 4.2.1). */
  siteName: string;
  /** Newest first. */
  entries: readonly FeedEntry[];
};

/** The Atom document. `updated` is the newest entry's; a blog with no posts yet says the epoch (Atom requires a date). */
export function atomFeed(feed: FeedInput): string {
  const updated = feed.entries.reduce((latest, entry) => later(entry.updated, latest), '1970-01-01');
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xml(feed.language)}">`,
    element('id', feed.id),
    element('title', feed.title),
    element('subtitle', feed.subtitle),
    element('updated', dateTime(updated)),
    `<author>${element('name', feed.siteName)}</author>`,
    `<link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${xml(feed.alternate)}"/>`,
    element('generator', 'polysite'),
    ...feed.entries.map(entryXml),
    '</feed>',
  ];
  return `${lines.join('\n')}\n`;
}

function entryXml(entry: FeedEntry): string {
  return [
    entry.language ? `<entry xml:lang="${xml(entry.language)}">` : '<entry>',
    element('id', entry.id),
    element('title', entry.title),
    `<link rel="alternate" type="text/html" href="${xml(entry.url)}"/>`,
    ...(entry.published ? [element('published', dateTime(entry.published))] : []),
    element('updated', dateTime(entry.updated)),
    ...(entry.author ? [`<author>${element('name', entry.author)}</author>`] : []),
    element('summary', entry.summary),
    '</entry>',
  ].join('');
}

function element(name: string, text: string): string {
  return `<${name}>${xml(text)}</${name}>`;
}

/** Atom dates are RFC 3339 date-times: a day (front matter) is its UTC midnight, as the pages show it; a date-time (git's) is kept. */
function dateTime(day: string): string {
  return day.includes('T') ? day : `${day}T00:00:00Z`;
}

// Characters XML 1.0 cannot hold at all (C0 controls but tab and line breaks,
// lone surrogates, U+FFFE/FFFF), and the C1 controls it discourages: dropped,
// so no title can make the feed unparseable.
const NOT_XML = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Text for an element or a double-quoted attribute: escaped as in HTML (the same five characters), after dropping what XML cannot hold. */
export function xml(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ''));
}

/** The later of two dates, each a day (`2026-06-12`) or a UTC date-time (`2026-06-12T10:00:00Z`). */
export function later(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
