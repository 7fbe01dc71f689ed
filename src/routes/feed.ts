// Where a locale's Atom feed lives, for the server that serves it and the blog
// listing that links to it: beside the blog index, so it follows the blog's
// localized path.

export const ATOM_TYPE = 'application/atom+xml';
/** The Content-Type a feed is served with, by the server and by a static host (export). */
export const ATOM_CONTENT_TYPE = `${ATOM_TYPE}; charset=utf-8`;

/** `/de/blog` -> `/de/blog/feed.xml` (the blog index's path, as in its PageData). */
export function feedPath(blogPath: string): string {
  return `${blogPath}/feed.xml`;
}
