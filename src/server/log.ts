import { writeSync } from 'node:fs';
import type { LogLevel } from './config.ts';

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
  /** Whether lines of this level are written: work done only to log one (the access log's listener) is skipped when not. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
};

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Lines written in one turn of the event loop go out in one write: under load that
 * is one syscall for many requests instead of one each. What is pending is written
 * synchronously if the process exits.
 */
export function batchedStdout(): (line: string) => void {
  let pending = '';
  const flush = () => {
    if (!pending) return;
    const out = pending;
    pending = '';
    process.stdout.write(out);
  };
  process.once('exit', () => {
    if (pending) writeSync(1, pending);
    pending = '';
  });
  return (line) => {
    if (!pending) setImmediate(flush);
    pending += line;
  };
}

export function createLogger(write: (line: string) => void = batchedStdout(), level: LogLevel = 'info'): Logger {
  const emit = (name: Exclude<LogLevel, 'silent'>) => {
    if (RANK[name] < RANK[level]) return () => {};
    // One line per request is on the hot path: one object, one stringify, no per-call Date.
    return (message: string, fields: Record<string, unknown> = {}) => {
      const entry: Record<string, unknown> = { time: isoNow(), level: name, msg: message, ...fields };
      for (const key in fields) if (fields[key] instanceof Error) entry[key] = describeError(fields[key] as Error);
      write(`${JSON.stringify(entry)}\n`);
    };
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    enabled: (name) => RANK[name] >= RANK[level],
  };
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
