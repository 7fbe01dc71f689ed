import { createServer } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { ContentError } from './content/errors.ts';
import { createApp } from './app.ts';
import { createLogger } from './log.ts';
import { prepareSite } from './site-runtime.ts';

const log = createLogger();

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    // One line naming the variable; no stack for a configuration mistake.
    process.stderr.write(`polysite: bad configuration: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

let runtime;
try {
  runtime = prepareSite(config);
} catch (error) {
  process.stderr.write(`polysite: cannot start: ${(error as Error).message}\n`);
  process.exit(error instanceof ContentError ? 1 : 2);
}

const app = createApp(config, runtime, log);
const server = createServer(app.callback());
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info('listening', { port, host: config.host, url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`, build: runtime.manifest.build });
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info('shutting down', { signal });
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
