import { createHash } from 'node:crypto';

/**
 * `/assets/<stem>-<hash>.json` (or another extension): a name that changes whenever the
 * bytes do, so the file can be cached for a year (the `asset` cache policy). The build
 * names its files the same way (esbuild's `[name]-[hash]`); files the server makes at
 * start-up (search indexes, messages, the head script) use this.
 */
export function hashedAssetUrl(stem: string, text: string | readonly Uint8Array[], extension = '.json'): string {
  const hash = createHash('sha256');
  // Or its UTF-8 bytes, in chunks (a large file is not made one string to be named).
  for (const part of typeof text === 'string' ? [text] : text) hash.update(part);
  return `/assets/${stem}-${hash.digest('hex').slice(0, 8).toUpperCase()}${extension}`;
}
