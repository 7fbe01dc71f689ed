import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './server.ts';

/** `npm run translations` with these arguments on a locales folder: its exit code and output. */
export function runTranslations(localesDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/translations.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOCALES_DIR: localesDir, DEFAULT_LOCALE: 'en' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
