/**
 * The one part of an envelope the relay reads: the `dsn` in its first line.
 * Items are never parsed or touched; the bytes go upstream as they came
 * (re-serialising could duplicate `sent_at`, which Sentry rejects, and would
 * drop attributes it does not know). The item framing is not walked either
 * (relay-design R-V3 makes it optional): Relay is the authority on it and
 * answers 400, which we mirror, and the SDK must not lose envelopes to a
 * stricter reading than Sentry's own.
 */
export type EnvelopeDsn = { kind: 'dsn'; dsn: string } | { kind: 'malformed'; reason: string };

/** The header line must end within this many bytes (relay-design R-V1). */
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

  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(body.subarray(0, headerEnd)));
  } catch {
    return { kind: 'malformed', reason: 'invalid envelope header' };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return { kind: 'malformed', reason: 'invalid envelope header' };
  }
  const { dsn } = header as { dsn?: unknown };
  if (typeof dsn !== 'string') return { kind: 'malformed', reason: 'missing dsn' };
  return { kind: 'dsn', dsn };
}
