/**
 * One JSON object per line on stdout (stderr for errors), the format log
 * platforms ingest without parsing rules. Errors keep their stack here, on the
 * server side only; responses never carry one.
 */
export type Logger = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (level: string) => (message: string, fields: Record<string, unknown> = {}) => {
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg: message };
    for (const [key, value] of Object.entries(fields)) entry[key] = value instanceof Error ? describeError(value) : value;
    write(JSON.stringify(entry) + '\n');
  };
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

function describeError(error: Error) {
  return { name: error.name, message: error.message, stack: error.stack };
}
