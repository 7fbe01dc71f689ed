import { createHash } from 'node:crypto';

/**
 * `/assets/<stem>-<hash>.json` (or another extension): a name that changes whenever the
 * bytes do, so the file can be cached for a year (the `asset` cache policy). The build
 * names its files the same way (esbuild's `[name]-[hash]`); files the server makes at
 * start-up (search indexes, messages, the head script) use this.
 */
export function hashedAssetUrl(stem: string, text: string, extension = '.json'): string {
  return `/assets/${stem}-${createHash('sha256').update(text).digest('hex').slice(0, 8).toUpperCase()}${extension}`;
}
