/**
 * The configured DSN, read the way the browser SDK reads it, so that the
 * string the SDK writes into each envelope header can be compared exactly
 * (getsentry/sentry-javascript `packages/core/src/utils/dsn.ts`).
 */
export type Dsn = { protocol: 'http' | 'https'; publicKey: string; host: string; port: string; projectId: string; path: string };

// The SDK's own regex, unchanged: a looser or stricter one would give a different
// dsnToString() than the browser's, and every envelope would then be refused with 403.
const DSN_REGEX = /^(?:(\w+):)\/\/(?:(\w+)(?::(\w+)?)?@)((?:\[[:.%\w]+\]|[\w.-]+))(?::(\d+))?\/(.+)/;

const EXPECTED = 'expected http(s)://<public key>@<host>[:port]/[path/]<project id>';

export function parseDsn(raw: string): Dsn {
  const match = DSN_REGEX.exec(raw);
  // The value is not repeated: it may hold a secret key, and this message goes to logs.
  if (!match) throw dsnError(`not a Sentry DSN (${EXPECTED})`);
  const [, protocol = '', publicKey = '', , host = '', port = '', rest = ''] = match;
  if (protocol !== 'http' && protocol !== 'https') throw dsnError(`the DSN's scheme "${protocol}" is not http or https`);

  // As the SDK does: the last segment is the project, anything before it a path
  // prefix, and the project is the leading digits of that segment.
  const segments = rest.split('/');
  const last = segments.pop() ?? '';
  const projectId = /^\d+/.exec(last)?.[0] ?? '';
  if (!projectId) throw dsnError(`the DSN's project id "${last}" is not a number (${EXPECTED})`);
  return { protocol, publicKey, host, port, projectId, path: segments.join('/') };
}

/** The form the browser SDK writes into envelope headers (no secret). */
export function dsnToString({ protocol, publicKey, host, port, projectId, path }: Dsn): string {
  return `${protocol}://${publicKey}@${host}${port ? `:${port}` : ''}/${path ? `${path}/` : ''}${projectId}`;
}

/** Where envelopes go: fixed at start-up, never derived from a request (SDK `api.ts`). */
export function ingestUrl({ protocol, publicKey, host, port, projectId, path }: Dsn): string {
  const base = `${protocol}://${host}${port ? `:${port}` : ''}/${path ? `${path}/` : ''}`;
  return `${base}api/${projectId}/envelope/?sentry_version=7&sentry_key=${encodeURIComponent(publicKey)}`;
}

/** A start-up message, not a bug: the stack would only hide the one line that matters. */
function dsnError(message: string): Error {
  const error = new Error(`SENTRY_DSN: ${message}`);
  error.stack = error.message;
  return error;
}
