import { createHash } from 'node:crypto';

/**
 * `/assets/<stem>-<hash>.json`: a name that changes whenever the bytes do, so the
 * file can be cached for a year (the `asset` cache policy). The build names its
 * files the same way (esbuild's `[name]-[hash]`); files the server makes from the
 * content at start-up (search indexes, messages) use this.
 */
export function hashedAssetUrl(stem: string, json: string): string {
  return `/assets/${stem}-${createHash('sha256').update(json).digest('hex').slice(0, 8).toUpperCase()}.json`;
}
