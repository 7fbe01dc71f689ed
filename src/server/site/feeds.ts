import { createHash } from 'node:crypto';
import { feedPath } from '../../routes/feed.ts';
import { matchRoute } from '../../routes/match.ts';
import { StoredBody } from '../http/stored-body.ts';
import type { Site, SourcePage } from '../content/site.ts';
import { atomFeed, type FeedEntry, later } from './atom-feed.ts';
import type { FeedLink } from './share-tags.ts';

/** Entries a feed holds: the newest posts. A feed is a window on the blog, not its archive. */
export const FEED_ENTRIES = 50;

/** A feed as served: the body with its compressed forms, and its validator. */
export type ServedFeed = { body: StoredBody; etag: string };

/** Each locale's Atom feed, built once at start-up, like the sitemap. */
export type Feeds = {
  /** The locale's feed as its pages advertise it; null when the locale serves no blog. */
  linkOf(locale: string): FeedLink | null;
  /** The feed at this exact path (percent-encoded, as the blog's path is served), if any. */
  at(path: string): ServedFeed | undefined;
  /** Every feed's path (percent-encoded): what a static export writes. */
  paths: readonly string[];
};

type Options = {
  site: Site;
  /** The site's name in a locale (its `site.name` message), for the feed's title. */
  siteName: (locale: string) => string;
  publicUrl: string;
};

/**
 * One feed per locale that serves a blog index, at the index's path +
 * `/feed.xml`: the posts its listing shows (an untranslated one marked with its
 * language), newest first.
 *
 * Ids are tag URIs (RFC 4151) made of the host, the post's date and its key (the
 * file's path under pages/), not its URL: a post keeps its id when its slug is
 * localized or the blog moves, so feed readers do not show it again as new.
 */
export function buildFeeds({ site, siteName: nameIn, publicUrl }: Options): Feeds {
  const { pathOf } = site.paths;
  const links = new Map<string, FeedLink>();
  const served = new Map<string, ServedFeed>();
  const host = new URL(publicUrl).hostname;
  const tag = (day: string | undefined, locale: string, slug: string, url: string) =>
    day ? `tag:${host},${day}:${[locale, ...slug.split('/')].map(encodeURIComponent).join('/')}` : url;

  for (const locale of site.locales) {
    // By key first: a page is read only when it is the blog's (the built snapshot parses a page on its first use).
    const localePages = site.pages.get(locale)!;
    const blogKeys = [...localePages.keys()].filter((key) => {
      const route = matchRoute(key);
      return route === 'blog-index' || route === 'blog-post';
    });
    const pages = blogKeys.map((key) => localePages.get(key)!);
    const blog = pages.find((page) => matchRoute(page.key) === 'blog-index');
    if (!blog) continue;
    const blogPath = pathOf(locale, blog.key);
    const siteName = nameIn(locale);
    const posts = pages
      .filter((page) => matchRoute(page.key) === 'blog-post' && !page.unlisted)
      .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
    const entries: FeedEntry[] = posts
      .slice(0, FEED_ENTRIES)
      .map((post) => entryOf(post, locale, publicUrl + pathOf(locale, post.key), tag));
    const path = feedPath(blogPath);
    const title = `${blog.title} · ${siteName}`;
    // The feed's id must never change: it is dated by the blog's first post ever, not
    // the oldest of the window the feed shows (that moves with every new post).
    const oldest = posts.reduce<string | undefined>(
      (first, post) => (post.date && (!first || post.date < first) ? post.date : first),
      undefined,
    );
    const body = atomFeed({
      id: tag(oldest, locale, blog.key, publicUrl + blogPath),
      title,
      subtitle: blog.description,
      language: locale,
      self: publicUrl + path,
      alternate: publicUrl + blogPath,
      siteName,
      entries,
    });
    links.set(locale, { title, href: publicUrl + path });
    served.set(path, {
      body: new StoredBody(Buffer.from(body)),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    });
  }
  return { linkOf: (locale) => links.get(locale) ?? null, at: (path) => served.get(path), paths: [...served.keys()] };
}

function entryOf(
  post: SourcePage,
  locale: string,
  url: string,
  tag: (day: string | undefined, locale: string, slug: string, url: string) => string,
): FeedEntry {
  return {
    id: tag(post.date, locale, post.key, url),
    title: post.title,
    url,
    summary: post.description,
    published: post.date,
    // Atom requires `updated`: its last change (git, else `updated:`), never before it was published;
    // a post with no date at all says the epoch rather than a date it never had.
    updated: later(post.lastUpdated ?? post.date ?? '1970-01-01', post.date ?? '1970-01-01'),
    author: post.author,
    language: post.contentLocale === locale ? undefined : post.contentLocale,
  };
}
