/**
 * The one part of an envelope the relay reads: the `dsn` in its first line.
 * Items are never parsed or touched; the bytes go upstream as they came
 * (re-serialising could duplicate `sent_at`, which Sentry rejects, and would
 * drop attributes it does not know). The item framing is not walked either:
 * Sentry's Relay is the authority on it and answers 400, which we mirror, and
 * the SDK must not lose envelopes to a stricter reading than Sentry's own.
 */
export type EnvelopeDsn = { kind: 'dsn'; dsn: string } | { kind: 'malformed'; reason: string };

/**
 * The header line must end within this many bytes: a real one is well under 1 KiB,
 * and a 5 MiB body without a newline is then not searched in full.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

const NEWLINE = 0x0a;
// fatal: a header that is not UTF-8 is malformed; replacing bytes would make it "valid".
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readEnvelopeDsn(body: Uint8Array): EnvelopeDsn {
  // Only the first MAX_HEADER_BYTES are searched, so a 5 MiB body without a newline costs 16 KiB.
  const end = body.subarray(0, MAX_HEADER_BYTES + 1).indexOf(NEWLINE);
  // An envelope with no items is just its header; without a newline the whole (short) body is the header.
  const headerEnd = end >= 0 ? end : body.length <= MAX_HEADER_BYTES ? body.length : -1;
  if (headerEnd < 0) return { kind: 'malformed', reason: 'envelope header too long' };
  if (headerEnd === 0) return { kind: 'malformed', reason: 'missing envelope header' };

  let text: string;
  let header: unknown;
  try {
    text = utf8.decode(body.subarray(0, headerEnd));
    header = JSON.parse(text);
  } catch {
    return { kind: 'malformed', reason: 'invalid envelope header' };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return { kind: 'malformed', reason: 'invalid envelope header' };
  }
  const { dsn } = header as { dsn?: unknown };
  if (typeof dsn !== 'string') return { kind: 'malformed', reason: 'missing dsn' };
  // SECURITY: JSON.parse keeps the last of repeated keys; another parser (Sentry's own)
  // may keep the first, or refuse. With one `dsn` only, what we checked is what it reads.
  if (countTopLevelKey(text, 'dsn') > 1) return { kind: 'malformed', reason: 'repeated dsn' };
  return { kind: 'dsn', dsn };
}

/**
 * How many times the top-level object of `json` (already known to be valid JSON)
 * names `key`. Keys are compared decoded, so `"ds\u006e"` counts as `dsn`.
 */
const JSON_SPACE = new Set([' ', '\t', '\n', '\r']);

function countTopLevelKey(json: string, key: string): number {
  let depth = 0;
  let count = 0;
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    else if (char === '"') {
      const start = i;
      for (i += 1; json[i] !== '"'; i += 1) if (json[i] === '\\') i += 1;
      // A string in the top-level object is a key when a colon follows it, after any whitespace.
      let next = i + 1;
      while (JSON_SPACE.has(json[next]!)) next += 1;
      if (depth === 1 && json[next] === ':' && JSON.parse(json.slice(start, i + 1)) === key) count += 1;
    }
  }
  return count;
}
