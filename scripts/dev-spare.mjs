// The next dev server, started before it is needed (scripts/dev.ts keeps one waiting
// while the author works). It loads now the packages the dev server's bundle imports,
// which is most of a server's start, and waits: told `start`, it takes the variables
// given and imports the bundle as it is then. A restart after a save under src/ then
// costs the bundle's own code, not loading React, Koa and the compilers again.
// Plain JavaScript, so that Node runs it without a TypeScript loader.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [serverDir] = process.argv.slice(2);

/**
 * The packages the bundle's files import statically: what a server loads when it starts
 * anyway. Not the monitoring SDK, which changes Node's modules when loaded and is loaded
 * only with SENTRY_DSN set, nor JSON files (they need an import attribute).
 */
function packagesOf(dir) {
  const names = new Set();
  let files = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.js'));
  } catch {
    // No bundle yet: nothing to load ahead.
  }
  for (const file of files) {
    let code = '';
    try {
      code = readFileSync(join(dir, file), 'utf8');
    } catch {
      continue; // Replaced by a rebuild meanwhile.
    }
    for (const [, name] of code.matchAll(/^import\s[^;]*?\sfrom\s*"([^".][^"]*)";/gms)) {
      if (!name.startsWith('@sentry/') && !name.endsWith('.json')) names.add(name);
    }
  }
  return [...names];
}

// Loading ahead may fail (a package removed meanwhile): the server's own import then says why.
const warm = Promise.allSettled(packagesOf(serverDir).map((name) => import(name)));

process.on('message', async (message) => {
  if (message?.type !== 'start') return;
  await warm;
  Object.assign(process.env, message.env);
  for (const name of message.unset) delete process.env[name];
  try {
    await import(pathToFileURL(join(serverDir, 'dev-server.js')).href);
  } catch (error) {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  }
});
// The proxy's IPC channel closes when it stops: so does this waiting server.
process.on('disconnect', () => process.exit(0));
