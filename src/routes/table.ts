/**
 * The route table: which screen shows which slug. One line per route, most
 * specific first. Patterns: '' is the locale's home, a literal matches itself,
 * ':name' matches one segment, and a trailing '*' matches the rest (one or more).
 * Whether a page exists for the slug is the content's business, not the table's.
 */
export const ROUTES = [
  { id: 'home', pattern: '' },
  { id: 'docs', pattern: 'docs' },
  { id: 'docs', pattern: 'docs/*' },
  { id: 'blog-index', pattern: 'blog' },
  { id: 'blog-post', pattern: 'blog/:post' },
  // Made per request from `?q=` (src/server/site/site-search.ts), never from content.
  { id: 'search', pattern: 'search' },
  { id: 'article', pattern: '*' },
] as const;

export type RouteId = (typeof ROUTES)[number]['id'];
