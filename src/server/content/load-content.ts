import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ContentError } from './errors.ts';
import { checkMessages, type MessageCatalog } from './messages.ts';
import { type LoadSiteOptions, loadSite, type Site } from './site.ts';

/**
 * The one check of an author's and translator's files, shared by `npm run build`
 * (scripts/build-content.ts), the server's start-up (site/prepare-site.ts, which is
 * how `npm run dev` compiles the content) and `npm run translations`: every locale
 * folder, every message against the default locale's, every page. All problems are
 * reported together, each with its file and line, in one ContentError; so the build
 * and the dev server refuse exactly the same things with the same words.
 *
 * `serving`: compile only these locales' pages (see loadSite); the folder and message
 * checks cover every locale in every call. `dates` and `drafts`: as loadSite takes them.
 */
export function loadContent(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  options: Pick<LoadSiteOptions, 'serving' | 'dates' | 'drafts' | 'pageCache' | 'warn' | 'frontMatter' | 'published'> = {},
): { site: Site; messages: MessageCatalog } {
  const folders = localeFolderProblems(localesDir, locales);
  // Without its messages or its pages a locale cannot be checked further: say only that.
  if (folders.length) throw new ContentError(folders);
  const messages = checkMessages(localesDir, locales, defaultLocale);
  const problems = [...messages.problems, ...messages.keys];
  let site: Site | undefined;
  try {
    site = loadSite(localesDir, locales, defaultLocale, messages.catalog, options);
  } catch (error) {
    if (error instanceof ContentError) problems.push(...error.problems);
    // A broken message may also break a label the pages use; the message's problem says why.
    else if (!problems.length) throw error;
  }
  if (problems.length || !site) throw new ContentError(problems);
  return { site, messages: messages.catalog };
}

/** A locale folder needs its `messages.json` and its `pages/` folder (which may be empty). */
export function localeFolderProblems(localesDir: string, locales: readonly string[]): string[] {
  const problems: string[] = [];
  for (const locale of locales) {
    const folder = relative(process.cwd(), join(localesDir, locale)) || join(localesDir, locale);
    const lacks: string[] = [];
    if (!isFile(join(localesDir, locale, 'messages.json'))) lacks.push('messages.json (every key of the default locale’s, translated)');
    if (!isDirectory(join(localesDir, locale, 'pages')))
      lacks.push('pages/ folder (it may be empty: a page missing there is served from the default locale)');
    if (lacks.length) problems.push(`${folder}: the locale folder "${locale}" has no ${lacks.join(' and no ')}`);
  }
  return problems;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
