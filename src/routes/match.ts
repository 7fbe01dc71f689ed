import { ROUTES, type RouteId } from './table.ts';

/**
 * Compiled once at import: static patterns go into a Map (one lookup), the rest
 * are checked in table order with a segment compare, no RegExp.
 */
type Dynamic = { id: RouteId; literal: readonly string[]; tail: 'one' | 'rest' };

const staticRoutes = new Map<string, RouteId>();
const dynamicRoutes: Dynamic[] = [];

for (const { id, pattern } of ROUTES) {
  const parts = pattern === '' ? [] : pattern.split('/');
  const last = parts.at(-1);
  if (last === '*' || last?.startsWith(':')) {
    dynamicRoutes.push({ id, literal: parts.slice(0, -1), tail: last === '*' ? 'rest' : 'one' });
  } else if (!staticRoutes.has(pattern)) {
    staticRoutes.set(pattern, id);
  }
}

/** The screen for a slug (decoded, '/'-separated, no leading slash), or null. */
export function matchRoute(slug: string): RouteId | null {
  const exact = staticRoutes.get(slug);
  if (exact) return exact;
  const segments = slug === '' ? [] : slug.split('/');
  for (const route of dynamicRoutes) {
    const { literal, tail } = route;
    const remaining = segments.length - literal.length;
    if (remaining < 1 || (tail === 'one' && remaining !== 1)) continue;
    if (literal.every((part, i) => segments[i] === part)) return route.id;
  }
  return null;
}
