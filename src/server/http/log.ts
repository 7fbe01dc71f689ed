import { MEMORY_BOUNDS } from '../memory-bounds.ts';
import type { LogLevel } from '../config.ts';

/**
 * One JSON object per line on stdout, the format log platforms ingest without
 * parsing rules. Errors keep their stack here, on the server side only;
 * responses never carry one. Nothing secret and no request bodies are logged.
 */
export type Logger = {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /**
   * A line whose fields are already the text of one JSON object (`{"a":1}`), made by
   * its caller: the access log's, written for every request, without an object and
   * its `JSON.stringify` in between.
   */
  json(level: Exclude<LogLevel, 'silent'>, message: string, fields: string): void;
  /** Whether lines of this level are written: work done only to log one (the access log's listener) is skipped when not. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
};

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * PIPE_BUF on Linux: a write of at most this many bytes to a pipe is never interleaved
 * with another writer's. Cluster workers share the primary's stdout, often a pipe
 * (a container's log driver), so a batch never goes over it; a longer line (a stack)
 * goes alone.
 */
const BATCH_BYTES = MEMORY_BOUNDS.logBatchBytes;
const BATCH_MS = 50;

/**
 * Lines go out in batches: one write once the next line would not fit in 4 KB, or 50
 * ms after the first line of a batch, whichever comes first. Under load that is one
 * syscall for about twenty requests instead of one for each turn of the event loop; a
 * quiet server's line is out within 50 ms. What is pending is written when the process
 * exits.
 */
export function batchedStdout(sink: (text: string) => void = (text) => process.stdout.write(text)): (line: string) => void {
  let pending = '';
  let pendingBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const out = pending;
    pending = '';
    pendingBytes = 0;
    sink(out);
  };
  // Writes to files and pipes are synchronous on POSIX (Node's process I/O notes), so this completes.
  process.once('exit', flush);
  return (line) => {
    const bytes = Buffer.byteLength(line);
    if (pendingBytes + bytes > BATCH_BYTES) flush();
    pending += line;
    pendingBytes += bytes;
    // Unref'd: a batch waiting to go out does not keep the process alive (exit writes it).
    timer ??= setTimeout(flush, BATCH_MS).unref();
  };
}

/**
 * Each line is built as a string: the time, level and message first, then the fields
 * as JSON (Errors as name, message and stack). The fields must not be named `time`,
 * `level` or `msg`. One line per request is on the hot path: no object is copied and
 * the time is formatted once per millisecond.
 */
export function createLogger(write: (line: string) => void = batchedStdout(), level: LogLevel = 'info'): Logger {
  const enabled = (name: Exclude<LogLevel, 'silent'>) => RANK[name] >= RANK[level];
  const heads = { debug: head('debug'), info: head('info'), warn: head('warn'), error: head('error') };
  const json = (name: Exclude<LogLevel, 'silent'>, message: string, fields: string) => {
    if (!enabled(name)) return;
    const rest = fields === '{}' ? '}' : `,${fields.slice(1)}`;
    write(`{"time":"${isoNow()}${heads[name]}${JSON.stringify(message)}${rest}\n`);
  };
  const emit = (name: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) =>
    json(name, message, fields ? JSON.stringify(withErrorsDescribed(fields)) : '{}');
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), json, enabled };
}

const head = (level: string) => `","level":"${level}","msg":`;

/** The fields as they are, or a copy with each Error as what JSON can show of it. */
function withErrorsDescribed(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (!(value instanceof Error)) continue;
    copy ??= { ...fields };
    copy[key] = describeError(value);
  }
  return copy ?? fields;
}

/** The current time as ISO 8601, formatted once per millisecond however many lines share it. */
let lastMs = 0;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function describeError(error: Error) {
  return { name: error.name, message: error.message, stack: error.stack };
}
