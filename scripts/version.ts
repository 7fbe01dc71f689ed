/**
 * `npm run version -- NAME [--label LABEL]`: freezes the current docs of every locale
 * as the version NAME (docs/versions.md): each locale's `pages/docs/` and the records of
 * its docs translations go to `versions/NAME/<locale>/`, and NAME is listed first in
 * `versions/versions.json` (made when missing, with the current docs as the next,
 * unreleased version). The content check then runs, as `npm run build` would.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { ContentError } from '../src/server/content/errors.ts';
import { loadContent } from '../src/server/content/load-content.ts';
import { snapshotVersion } from '../src/server/content/version-snapshot.ts';

const USAGE = `Usage: npm run version -- NAME [--label LABEL]

  NAME            the version's URL segment (/<locale>/docs/NAME/...): letters, digits, ".", "-", "_"
  --label LABEL   what readers see in the version switcher and the banner (default: NAME)
`;

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { label: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const name = positionals[0]!;
  const written = snapshotVersion(config.localesDir, config.locales, name, values.label ?? name);
  process.stdout.write(`version ${name}: ${written.pages} pages of ${config.locales.length} locales in ${written.dir}\n`);
  try {
    loadContent(config.localesDir, config.locales, config.defaultLocale);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`npm run version: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
