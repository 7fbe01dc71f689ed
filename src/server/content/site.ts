import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ContentError } from './errors.ts';
import { contentDates } from './git-dates.ts';
import { type FrontMatterMemo, isDraftText, splitFrontMatter, type FrontMatter } from './front-matter.ts';
import { causeOf } from '../../i18n/failure-cause.ts';
import { makeIntls, type SiteIntl } from '../../i18n/intl.ts';
import type { Heading } from '../../routes/types.ts';
import type { MessageCatalog } from './messages.ts';
import { folderPages } from './folder-pages.ts';
import { plainText } from './plain-text.ts';
import { utf8Text } from './utf8-text.ts';
import { CALLOUT_KINDS, type MarkdownLabels } from './markdown.ts';
import { textCompiler } from './shared-renders.ts';
import { type FragmentLink, fragmentProblems, relativeKey } from './links.ts';
import { imageFinder } from './page-images.ts';
import { type CachedPage, cacheKey, type PageCache } from './page-cache.ts';
import { localizeSlugs, type PageKey, sitePaths, type SitePaths, unreachableFile } from './paths.ts';
import { pagePath } from '../../routes/location.ts';
import type { Section } from './sections.ts';
import { readSectionFiles, sectionLabel } from './section-files.ts';
import { readRecord, type TranslationRecord } from './translation-record.ts';
import { type DocsVersion, isDocsKey, keyIn, baseKey, readVersions, type SiteVersions, versionOf } from './versions.ts';

/**
 * All Markdown of all locales, compiled once at start-up. A request never reads a
 * file or runs Markdown: it looks a page up in `Site.pages`.
 */
/** What the renders shared between a load's versions may hold (shared-renders.ts). */
const SHARED_RENDER_BYTES = 48 * 1024 * 1024;

export type SourcePage = FrontMatter & {
  /**
   * The page's identity in every locale: its file's path under `pages/`, decoded,
   * '' for the locale's home (`about`, `docs/guides/install`).
   */
  key: PageKey;
  /** Its decoded path under the serving locale, localized by `slug:` front matter (`ueber-uns`); see paths.ts. */
  localPath: string;
  /** The locale the text is written in (differs from the serving locale for a fallback). */
  contentLocale: string;
  /**
   * The compiled HTML. A function, so that a large site's pages can stay on disk
   * (in the built snapshot; see snapshot.ts) or, freshly compiled, as UTF-8 bytes
   * off the heap, until a request needs one.
   */
  html: () => string;
  /**
   * Every heading of the body, in order, as compiled (ids match the HTML). A function,
   * as `html` is: from the built snapshot they are read with the HTML, only for a page
   * that is rendered (half of each page's entry, parsed at start for nothing).
   */
  headings: () => Heading[];
  /**
   * The page's body as Markdown, for its `.md` twin and llms-full.txt (site/llms.ts adds
   * the front matter): its source flattened to plain Markdown, links and images as the
   * page renders them (paths in the serving locale); see markdown-twin.ts. A function,
   * as `html` is.
   */
  markdown: () => string;
  /**
   * The text cut at its headings, for the search index the build makes. The built
   * snapshot leaves it out (the index files hold it), so a server started from a
   * build has it empty.
   */
  sections: Section[];
  textLength: number;
  file: string;
  /** The file's path under the content folder, with `/` (`de/pages/docs/install.md`): what EDIT_URL's `{path}` becomes. */
  sourcePath: string;
  /** The fingerprint of this page's own source text (see translation-record.ts); '' but for the default locale's own pages (records compare those alone). */
  fingerprint: string;
  /** For a translation: the source fingerprint its record holds; undefined when it has none. */
  recorded?: string;
  /**
   * When this file last changed: its last commit's author date from git (UTC ISO
   * date-time), else its `updated:` front matter (a day), else unknown. Never the
   * build's time. Kept in the built snapshot, so a server without .git shows it.
   */
  lastUpdated?: string;
  /** Made for a docs folder without index.md: its page is the list of its pages (folder-pages.ts). */
  generated?: true;
  /** A docs folder's page whose `_section.yml` says `collapsed: true` (section-files.ts). */
  collapsed?: true;
};

export type Site = {
  locales: readonly string[];
  defaultLocale: string;
  /** Per serving locale: every slug it serves, its own page or the default locale's. */
  pages: ReadonlyMap<string, ReadonlyMap<string, SourcePage>>;
  /** Per slug: the locales that have a real translation. */
  translations: ReadonlyMap<string, readonly string[]>;
  /** Each page's path per locale, and the page a requested path names. */
  paths: SitePaths;
  /** The docs' versions, newest first (versions.ts); empty for an unversioned site. */
  versions: SiteVersions;
};

type Source = {
  locale: string;
  key: PageKey;
  file: string;
  /** The file's path under the locale's folder (`pages/docs/install.md`), for what it names relatively. */
  path: string;
  front: FrontMatter;
  body: string;
  bodyLine: number;
  slugLine: number;
  sourcePath: string;
  /** A docs folder's page made for want of an index.md (folder-pages.ts). */
  generated?: true;
  /** The version whose docs hold the page (a versioned site's docs page). */
  version?: DocsVersion | undefined;
};

type Mistake = { line: number; message: string };

/**
 * What `npm run dev` keeps from one compile to the next, so that an edit compiles
 * the edited page again and reuses every other: each file's source as last read
 * (kept while its size, times and inode are the same), and each compiled page with
 * what its HTML depended on (its source, every page's path, the labels).
 */
export type SiteMemo = {
  sources: Map<string, { stamp: string; source: Source }>;
  /** Each folder's page files as last listed (see LoadSiteOptions.changed). */
  listings: Map<string, string[]>;
  pages: Map<string, KeptPage>;
  /** What links resolved against at the last load that completed; every kept page's links resolve so under it. */
  links?: LinkWorld | undefined;
};

/** What a link's outcome depends on besides its page's own source (see linkOutcome). */
type LinkWorld = {
  read: string;
  versions: string;
  slugs: ReadonlyMap<string, ReadonlyMap<string, string>>;
  defaultKeys: ReadonlyMap<string, string>;
  publishedKeys: ReadonlySet<string>;
  draftFiles: ReadonlyMap<string, string>;
  /** Only its keys count: the pages a link may name. */
  keys: ReadonlyMap<string, unknown>;
};

/**
 * One compiled page and what it was compiled against: its source, the labels, and how
 * each of its links resolved (`links`: href and line, `outcome`: what they rendered to,
 * the mistakes and fragment links they made). Another page's path, draft state or
 * existence matters to it only through those links, so adding a page elsewhere reuses it.
 */
type KeptPage = {
  source: Source;
  context: string;
  links: readonly (readonly [href: string, line: number])[];
  /** Each image's src and line, as links: an image's bytes name its asset. */
  images: readonly (readonly [src: string, line: number])[];
  outcome: string;
  page: SourcePage;
  mistakes: Mistake[];
  fragments: FragmentLink[];
};

export function createSiteMemo(): SiteMemo {
  return { sources: new Map(), listings: new Map(), pages: new Map() };
}

/**
 * `messages` name the boxes and anchors the compiled HTML carries (see MarkdownLabels).
 * `serving`: compile only these locales' pages (the others stay empty), reading
 * only their sources and the default locale's, so a build can compile the locales
 * in several threads and join them (scripts/build-content.ts). Each problem is
 * found by a call that serves its locale (the default locale's by every call).
 * `warn` hears what the author may want to fix but the build goes on with (a code
 * block in a language that is not highlighted), with its file and line.
 * `dates`: each file's last change by its path under `localesDir` (git-dates.ts); by
 * default read from git now (a build reads them once for all its threads).
 * `drafts`: 'show' compiles pages marked `draft: true` as any other (`npm run dev`);
 * 'hide' (the build, the server) leaves them out as if their files were not there, so
 * a draft translation is served as the fallback, and a link to a draft from a
 * published page is an error naming both files (in both modes: the build would fail).
 */
export type LoadSiteOptions = {
  serving?: readonly string[] | undefined;
  warn?: (message: string) => void;
  memo?: SiteMemo;
  /** Compiled pages kept on disk between builds (page-cache.ts): a page whose inputs are unchanged is not compiled again. */
  pageCache?: PageCache;
  /** Front matter parsed before (front-matter.ts), by its text: the build keeps it between builds. */
  frontMatter?: FrontMatterMemo;
  /**
   * Page files whose front matter has no `draft:` key, as the build read them just before: a
   * locale this load does not read takes them as published without reading them again.
   */
  published?: ReadonlySet<string>;
  /**
   * With `memo`: every file and folder under the content that changed since the last load,
   * as absolute paths (the dev server's watcher reports them). A page file not named is
   * taken as the memo last read it, without a stat, and a folder nothing named is under is
   * not listed again. Without it, every file's size and times are checked.
   */
  changed?: ReadonlySet<string>;
  dates?: ReadonlyMap<string, string>;
  drafts?: 'show' | 'hide';
};

export function loadSite(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
  messages: MessageCatalog,
  {
    serving = locales,
    warn = (message) => console.warn(`warning: ${message}`),
    memo,
    pageCache,
    frontMatter,
    published,
    changed,
    dates = contentDates(localesDir, warn),
    drafts = 'hide',
  }: LoadSiteOptions = {},
): Site {
  const problems: string[] = [];
  // The labels the compiled HTML carries; a label that fails to format is the default locale's (said once).
  const intls = makeIntls(messages, defaultLocale, ({ locale, id, error }) =>
    process.stderr.write(
      `polysite: message "${id}" of locale "${locale}" did not format (${causeOf(error)}); the default locale's is used\n`,
    ),
  );
  const labels = new Map(locales.map((locale) => [locale, markdownLabels(intls.get(locale)!)]));
  // Only the serving locales' sources and the default locale's (their fallbacks) are read:
  // the others' pages are needed only by name, for the translations.
  const reading = new Set([...serving, defaultLocale]);
  const read = locales.filter((locale) => reading.has(locale));
  const translations = new Map<string, string[]>();
  const sources: Source[] = [];
  /** Hidden drafts that were read (their paths count for links); the file of every draft by key; every key with a file that is not one. */
  const draftSources: Source[] = [];
  const draftFiles = new Map<PageKey, string>();
  const publishedKeys = new Set<PageKey>();
  const hideDrafts = drafts === 'hide';
  /** Where a file's page goes: published, or a draft shown or left out. */
  const place = (locale: string, key: PageKey, display: string, draft: boolean, source?: Source) => {
    if (draft) draftFiles.set(key, display);
    else publishedKeys.add(key);
    if (draft && hideDrafts) {
      if (source) draftSources.push(source);
      return;
    }
    translations.set(key, [...(translations.get(key) ?? []), locale]);
    if (source) sources.push(source);
  };
  const { versions, problems: versionProblems } = readVersions(localesDir);
  problems.push(...versionProblems);
  const current = versions.find((version) => version.dir === undefined);
  const frozen = versions.filter((version) => version.dir !== undefined);
  /** The trees a locale's pages are read from: its folder, then each frozen version's docs. */
  const trees = [
    { version: current, root: localesDir, docsOnly: false },
    ...frozen.map((version) => ({ version, root: version.dir!, docsOnly: true })),
  ];
  /** A folder's page files: as last listed when nothing changed under it (see `changed`). */
  const listed = new Set<string>();
  const listing = (dir: string): string[] => {
    listed.add(dir);
    const kept = memo && changed && memo.listings.get(dir);
    if (kept && !relist(dir, kept, changed!)) return kept;
    const files = listMarkdown(dir);
    memo?.listings.set(dir, files);
    return files;
  };
  for (const locale of locales) {
    // `x.md` and `x/index.md` are both the page `x`: neither may silently replace the other.
    const files = new Map<string, string>();
    for (const tree of trees) {
      const pagesDir = join(tree.root, locale, 'pages');
      if (tree.docsOnly && !isDirectory(join(pagesDir, 'docs'))) {
        const folder = relative(process.cwd(), join(pagesDir, 'docs')) || join(pagesDir, 'docs');
        if (locale === defaultLocale)
          problems.push(`${tree.version!.declared}: the version "${tree.version!.name}" has no ${folder}/ folder`);
        else if (serving.includes(defaultLocale))
          warn(
            `${folder}/: the version "${tree.version!.name}" has no ${locale} docs: its pages are served from ${defaultLocale}, with a notice`,
          );
        continue;
      }
      for (const file of listing(tree.docsOnly ? join(pagesDir, 'docs') : pagesDir)) {
        const inPages = pathUnder(pagesDir, file);
        // The name a kept source was read under (a folder outside the working directory takes path.relative).
        const display = memo?.sources.get(file)?.source.file ?? (pathUnder(process.cwd(), file) || file);
        const unreachable = unreachableFile(inPages);
        if (unreachable) {
          problems.push(`${display}: ${unreachable}`);
          continue;
        }
        const own = keyOf(inPages);
        const version = tree.version && isDocsKey(own) ? tree.version : undefined;
        if (!tree.docsOnly && version) {
          const taken = frozen.find((other) => current?.mount === 'docs' && (own === other.mount || own.startsWith(`${other.mount}/`)));
          if (taken) {
            problems.push(
              `${display}:1: the page ${pagePath(locale, own)} is on the path of the version "${taken.name}" (${taken.declared}); rename the file or the version`,
            );
            continue;
          }
        }
        const key = version ? keyIn(version, own) : own;
        const first = files.get(key);
        if (first !== undefined) {
          if (reading.has(locale))
            problems.push(
              `${display}:1: ${first} and this file are both the page ${pagePath(locale, key)}; keep one${
                first !== display && first.normalize('NFC') === display.normalize('NFC') ? SPELLED_TWICE : ''
              }`,
            );
          continue;
        }
        files.set(key, display);
        if (!reading.has(locale)) {
          // Known by name only (another thread compiles it): whether it is published, from its front matter's text.
          place(locale, key, display, !published?.has(file) && isDraftText(fileHead(file)));
          continue;
        }
        const kept = memo?.sources.get(file);
        const stamp = memo && (kept && changed && !changed.has(file) ? kept.stamp : statStamp(file));
        // A source as last read, while its file and the version its tree is are unchanged (versions.json may move a tree).
        const known = stamp && kept?.source.key === key && sameVersion(kept.source.version, version) ? kept : undefined;
        if (known && known.stamp === stamp) {
          place(locale, key, display, known.source.front.draft === true, known.source);
          continue;
        }
        try {
          const text = readFileSync(file, 'utf8');
          const { data, body, bodyLine, keyLines } = splitFrontMatter(text, display, frontMatter);
          const slugLine = keyLines.slug ?? 2;
          const source: Source = {
            locale,
            key,
            file: display,
            path: relative(join(tree.root, locale), file).split(sep).join('/'),
            front: data,
            body,
            bodyLine,
            slugLine,
            sourcePath: relative(localesDir, file).split(sep).join('/'),
            ...(version && { version }),
          };
          place(locale, key, display, data.draft === true, source);
          if (stamp) memo.sources.set(file, { stamp, source });
        } catch (error) {
          memo?.sources.delete(file);
          problems.push((error as Error).message);
        }
      }
    }
  }

  // Each docs folder's _section.yml (label per locale, order, collapsed), from the default locale's folder.
  const { sections: sectionFiles, problems: sectionProblems } = readSectionFiles(join(localesDir, defaultLocale, 'pages'), locales);
  problems.push(...sectionProblems);

  // A docs folder with no index.md in the default locale gets a page listing its pages, in every
  // locale that serves it (titled by its name: there is no text to translate), noted once.
  const defaultSourceKeys = sources.filter((source) => source.locale === defaultLocale).map((source) => source.key);
  const sourced = new Set(sources.map((source) => `${source.locale}\0${source.key}`));
  for (const folder of folderPages(defaultSourceKeys, join(localesDir, defaultLocale, 'pages'))) {
    if (serving.includes(defaultLocale)) {
      warn(
        `${folder.folder}/: a docs folder without index.md: its page lists its pages, titled "${folder.front.title}" (add index.md to give it a title and text)`,
      );
    }
    for (const locale of read) {
      if (sourced.has(`${locale}\0${folder.key}`)) continue;
      // Titled by its _section.yml's label in this locale, else by its name.
      const label = sectionLabel(sectionFiles.get(folder.key), locale, defaultLocale);
      sources.push({
        locale,
        key: folder.key,
        file: `${folder.folder}/`,
        path: `pages/${folder.key}/index.md`,
        front: label ? { ...folder.front, title: label, description: label } : folder.front,
        body: '',
        bodyLine: 1,
        slugLine: 1,
        // No file to edit, and none to date.
        sourcePath: '',
        generated: true,
        version: versionOf(versions, folder.key),
      });
    }
    publishedKeys.add(folder.key);
    translations.set(folder.key, [...new Set([...(translations.get(folder.key) ?? []), ...locales])]);
  }

  // Each tree's own records: a frozen version's translations are compared with that version's source.
  const records = new Map<string, TranslationRecord>();
  for (const tree of trees) {
    for (const locale of read) {
      if (locale === defaultLocale) continue;
      try {
        records.set(`${tree.root}\0${locale}`, readRecord(tree.root, locale));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }

  const recordOf = (source: Source) => {
    const record = records.get(`${source.version?.dir ?? localesDir}\0${source.locale}`);
    // A tree's record names its pages as that tree has them (`docs/install`, never `docs/0.1/install`).
    const key = source.version ? baseKey(source.version, source.key) : source.key;
    return record && Object.hasOwn(record, key) ? { recorded: record[key]! } : {};
  };

  const slugSource = ({ locale, key, file, front, slugLine, version }: Source) => ({
    locale,
    key,
    file,
    slug: version && version.mount !== 'docs' ? versionedSlug(version, key, front.slug) : front.slug,
    slugLine,
  });
  const { slugs, problems: pathProblems } = localizeSlugs(sources.map(slugSource), read, defaultLocale);
  problems.push(...pathProblems);
  // Authors link in the default locale's form (`/about`, or a page's key): the key it names, if any.
  // A hidden draft's path is known too, to name it when a published page links to it; it is served at none.
  const linkable = draftSources.length
    ? localizeSlugs([...sources, ...draftSources].map(slugSource), [defaultLocale], defaultLocale).slugs
    : slugs;
  const defaultKeys = new Map([...linkable.get(defaultLocale)!].map(([key, path]) => [path, key]));
  const keyOfLink = (path: string): string | undefined => {
    // In NFC, as keys are: a link typed with a decomposed letter names the same page.
    const slug = safeDecode(path.replace(/^\/|\/$/g, '')).normalize('NFC');
    return defaultKeys.get(slug) ?? (translations.has(slug) || draftFiles.has(slug) ? slug : undefined);
  };
  // What a relative link may name: a published page, or a draft (to say it is one).
  const linkKeys = draftFiles.size ? new Map<string, unknown>([...translations, ...draftFiles]) : translations;
  // Everything a link resolves against. When it is as at the last complete load, every kept
  // page's links resolve as they did (its outcome was checked or made then), so they are not
  // resolved again: at 10,000 pages that is most of a reload. Unset until this load completes.
  const linkWorld: LinkWorld | undefined = memo && {
    read: read.join(),
    versions: JSON.stringify(versions),
    slugs,
    defaultKeys,
    publishedKeys,
    draftFiles,
    keys: translations,
  };
  const linksAsBefore = memo?.links !== undefined && sameLinkWorld(memo.links, linkWorld!);
  if (memo) memo.links = undefined;

  const pages = new Map<string, Map<string, SourcePage>>(locales.map((locale) => [locale, new Map()]));
  const images = imageFinder(localesDir, defaultLocale);
  const fragments: FragmentLink[] = [];
  // What a page's HTML depends on besides its source and its links: the labels of the
  // language it is written in (an edit to another locale's messages compiles none of its
  // pages again), and each folder's _section.yml (a page's order and folding come from it).
  const sectionContext =
    (memo || pageCache) &&
    JSON.stringify([...sectionFiles].map(([key, section]) => [key, section.order, section.collapsed, [...(section.label ?? [])]]));
  const contexts = new Map(
    sectionContext === undefined ? [] : [...labels].map(([locale, label]) => [locale, `${labelsText(label)}\0${sectionContext}`]),
  );
  /** A page's mistakes and fragment links join the site's (a reused page's too: they stop the load until it is fixed). */
  const settle = (source: Source, mistakes: readonly Mistake[], links: readonly FragmentLink[]) => {
    for (const { line, message } of mistakes) problems.push(`${source.file}:${line}: ${message}`);
    fragments.push(...links);
  };
  // A frozen version repeats most of the docs before it word for word: each text is
  // compiled once, and each page fills in its own links (shared-renders.ts).
  const compileText = textCompiler(labels, frozen.length > 0, SHARED_RENDER_BYTES);
  const compile = (source: Source, servingLocale: string) => {
    // A fallback compiles the default locale's text again: its own mistakes are reported once, where it is served as itself.
    const own = servingLocale === source.locale;
    const record = own ? recordOf(source) : {};
    // Per compile, not per source: a commit changes a date and not the file.
    const lastUpdated = dates.get(source.sourcePath) ?? source.front.updated;
    const memoKey = `${servingLocale}\0${source.file}`;
    // Links go to the page's path in the serving locale, so a fallback page keeps the reader
    // in their language; labels are in the content's language, the `lang` its article is marked with.
    const served = slugs.get(servingLocale)!;
    const mistakes: Mistake[] = [];
    const pageFragments: FragmentLink[] = [];
    const report = (line: number, message: string) => {
      if (own) mistakes.push({ line, message });
    };
    const fragmentLink = (line: number, href: string, key: string, fragment: string) =>
      pageFragments.push({ file: source.file, line, href, locale: servingLocale, sourceLocale: source.locale, key, fragment });
    const context = contexts.get(source.locale);
    const kept = memo?.pages.get(memoKey);
    if (
      kept &&
      kept.source === source &&
      kept.context === context &&
      kept.page.localPath === served.get(source.key) &&
      kept.page.recorded === record.recorded &&
      kept.page.lastUpdated === lastUpdated &&
      ((linksAsBefore && kept.images.length === 0) ||
        dependencyOutcome(kept.links, kept.images, resolverFor, imageOutcome) === kept.outcome)
    ) {
      settle(source, kept.mistakes, kept.fragments);
      pages.get(servingLocale)!.set(source.key, kept.page);
      return;
    }
    // Every input of the compile known before it: what the page cache finds an entry by.
    // The body is the last part, as it is: no JSON escaping of the page's whole text (the
    // JSON before it holds no NUL, so no two pages' parts join to the same text).
    const { body: sourceBody, ...described } = source;
    const diskKey =
      pageCache &&
      cacheKey(
        pageCache.code,
        // Only the default locale's own pages carry a source fingerprint (shared-renders.ts).
        defaultLocale,
        servingLocale,
        context,
        served.get(source.key),
        record.recorded ?? null,
        lastUpdated ?? null,
        { ...described, version: source.version ?? null },
        sourceBody,
      );
    const cached = diskKey ? pageCache.get(diskKey) : undefined;
    if (cached && dependencyOutcome(cached.links, cached.images, resolverFor, imageOutcome) === cached.outcome) {
      const page = fromCached(cached);
      settle(source, cached.mistakes, cached.fragments as FragmentLink[]);
      if (own) for (const { line, message } of cached.warnings) warn(`${source.file}:${line}: ${message}`);
      pages.get(servingLocale)!.set(source.key, page);
      if (context && memo) {
        const { links, images, outcome, mistakes } = cached;
        memo.pages.set(memoKey, { source, context, links, images, outcome, page, mistakes, fragments: cached.fragments as FragmentLink[] });
      }
      return;
    }
    // Each link and image as written and as the page renders it: the Markdown twin is rewritten with them.
    const rewritten = new Map<string, string>();
    const links: [string, number][] = [];
    const imageRefs: [string, number][] = [];
    const link = (href: string, line: number): string => {
      const rendered = resolveLink(href, line);
      rewritten.set(href, rendered);
      if (context) links.push([href, line]);
      return rendered;
    };
    // Resolving a link reports into the sinks it is given: the page's own, or a check's.
    function resolverFor(
      report: (line: number, message: string) => void,
      fragmentLink: (line: number, href: string, key: string, fragment: string) => void,
    ) {
      return (href: string, line: number): string => {
        const cut = href.search(/[?#]/);
        const [path, rest] = cut === -1 ? [href, ''] : [href.slice(0, cut), href.slice(cut)];
        const fragment = rest.includes('#') ? rest.slice(rest.indexOf('#') + 1) : '';
        if (path === '') {
          if (fragment) fragmentLink(line, href, source.key, fragment);
          return href;
        }
        const key = path.startsWith('/') ? absoluteKey(path) : relativeLink(relativeKey(source, path, versionKeys()));
        if (typeof key !== 'string') {
          report(line, `link to ${href}, ${key.problem}`);
          return href;
        }
        if (!source.front.draft && !publishedKeys.has(key)) {
          report(line, `link to ${href}, a draft (${draftFiles.get(key)}): publish it (remove "draft: true") or remove the link`);
          return href;
        }
        if (fragment) fragmentLink(line, href, key, fragment);
        const local = served.get(key);
        return local === undefined ? `/${servingLocale}${path === '/' ? '' : path}${rest}` : pagePath(servingLocale, local) + rest;
      };
    }
    const resolveLink = resolverFor(report, fragmentLink);
    /** A link to the docs from a version's page names that version's page (`/docs/x` in 0.1 is `docs/0.1/x`). */
    function within(key: string): string | { problem: string } {
      const { version } = source;
      if (!version || version.mount === 'docs' || !isDocsKey(key) || frozen.some((other) => versionOf([other], key))) return key;
      const inVersion = keyIn(version, key);
      return linkKeys.has(inVersion) ? inVersion : { problem: `a page the docs of version "${version.label}" lack (no ${inVersion})` };
    }
    function absoluteKey(path: string): string | { problem: string } {
      // In NFC, as keys are: a link typed with a decomposed letter names the same page.
      const slug = safeDecode(path.replace(/^\/|\/$/g, '')).normalize('NFC');
      if (source.version && source.version.mount !== 'docs' && isDocsKey(slug)) return within(slug);
      return keyOfLink(path) ?? { problem: 'a page that exists in no locale' };
    }
    // A docs page the version lacks is said so by `within`, not as a file of no locale.
    function versionKeys(): { has(key: string): boolean } {
      return source.version && source.version.mount !== 'docs' ? { has: (key) => isDocsKey(key) || linkKeys.has(key) } : linkKeys;
    }
    function relativeLink(key: string | { problem: string }): string | { problem: string } {
      return typeof key === 'string' ? within(key) : key;
    }
    // What an image resolves to now (its asset's name carries a hash of its bytes), as one string.
    function imageOutcome(src: string): string {
      return JSON.stringify(images({ locale: source.locale, path: source.path, version: source.version?.dir }, src));
    }
    const image = (src: string, line: number) => {
      if (context) imageRefs.push([src, line]);
      const found = images({ locale: source.locale, path: source.path, version: source.version?.dir }, src);
      if ('problem' in found) report(line, `image ${src}: ${found.problem}`);
      if ('image' in found) rewritten.set(src, found.image.src);
      return 'image' in found ? found.image : undefined;
    };
    const { front, body, bodyLine } = source;
    const {
      html,
      headings,
      sections,
      textLength,
      twin,
      fingerprint,
      problems: found,
      warnings,
    } = compileText(
      {
        locale: source.locale,
        title: front.title,
        description: front.description,
        body,
        bodyLine,
        source: own && servingLocale === defaultLocale,
      },
      { link, image },
      rewritten,
    );
    for (const { line, message } of found) report(line, message);
    if (own) for (const { line, message } of warnings) warn(`${source.file}:${line}: ${message}`);
    settle(source, mistakes, pageFragments);
    const section = sectionFiles.get(source.key);
    const page: SourcePage = {
      ...source.front,
      // The folder's _section.yml places it where its page's front matter does not.
      ...(source.front.order === undefined && section?.order !== undefined && { order: section.order }),
      ...(section?.collapsed && { collapsed: true }),
      // Shown as text (<meta>, Open Graph, feeds, post lists): `tar` written as in Markdown reads tar.
      description: plainText(source.front.description),
      key: source.key,
      localPath: served.get(source.key)!,
      contentLocale: source.locale,
      html: utf8Text(html),
      headings: () => headings,
      markdown: utf8Text(twin),
      sections,
      textLength,
      file: source.file,
      sourcePath: source.sourcePath,
      fingerprint,
      ...record,
      ...(lastUpdated !== undefined && { lastUpdated }),
      ...(source.generated && { generated: true }),
    };
    pages.get(servingLocale)!.set(source.key, page);
    if (context !== undefined) {
      const outcome = dependencyOutcome(links, imageRefs, resolverFor, imageOutcome);
      memo?.pages.set(memoKey, { source, context, links, images: imageRefs, outcome, page, mistakes, fragments: pageFragments });
      if (diskKey)
        pageCache.set(diskKey, {
          links,
          images: imageRefs,
          outcome,
          page: toCached(page, html, headings, twin),
          mistakes,
          fragments: pageFragments,
          warnings: own ? [...warnings] : [],
        });
    }
  };
  const serves = new Set(serving);
  for (const source of sources) if (serves.has(source.locale)) compile(source, source.locale);
  // A page missing in a locale but present in the default one is served from the default.
  for (const source of sources) {
    if (source.locale !== defaultLocale) continue;
    for (const locale of serving) if (!pages.get(locale)!.has(source.key)) compile(source, locale);
  }

  problems.push(...fragmentProblems(fragments, pages));
  if (memo) {
    forgetGone(memo, new Set(sources), pages);
    for (const dir of memo.listings.keys()) if (!listed.has(dir)) memo.listings.delete(dir);
    memo.links = linkWorld;
  }
  if (problems.length) throw new ContentError([...new Set(problems)]);
  return { locales, defaultLocale, pages, translations, paths: sitePaths(pages, defaultLocale), versions };
}

/**
 * A version's page's `slug:` where its docs are mounted: the root's own slug is the
 * version's name (its folder is the docs root's, localized or not), and a whole path
 * under `/docs` moves under the version's.
 */
function versionedSlug(version: DocsVersion, key: PageKey, slug: string | undefined): string | undefined {
  if (slug === undefined || key === version.mount) return undefined;
  const trimmed = slug.trim();
  if (trimmed === '/docs' || trimmed.startsWith('/docs/')) return `/${version.mount}${trimmed.slice('/docs'.length)}`;
  return slug;
}

/**
 * Whether a folder listed as `files` must be listed again: something changed under it (or
 * it, or a folder above it) that is not an edit of one of its page files, still there.
 */
/** Whether a source read under `was` may be taken as read under `is`: the same version, with everything versions.json says of it. */
function sameVersion(was: DocsVersion | undefined, is: DocsVersion | undefined): boolean {
  return was === is || (was !== undefined && is !== undefined && versionText(was) === versionText(is));
}

/** A version as text, worked out once per version read (every source of a tree shares its version). */
const versionTexts = new WeakMap<DocsVersion, string>();
function versionText(version: DocsVersion): string {
  const known = versionTexts.get(version);
  if (known !== undefined) return known;
  const text = JSON.stringify(version);
  versionTexts.set(version, text);
  return text;
}

function relist(dir: string, files: readonly string[], changed: ReadonlySet<string>): boolean {
  let known: Set<string> | undefined;
  for (const path of changed) {
    if (!(path === dir || path.startsWith(`${dir}${sep}`) || dir.startsWith(`${path}${sep}`))) continue;
    known ??= new Set(files);
    if (!known.has(path) || !isFile(path)) return true;
  }
  return false;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `relative(dir, file)` for a file listed under `dir` (every page file is): its tail, without
 * path.relative's resolving of both paths, which at 10,000 files was a tenth of a dev reload.
 */
function pathUnder(dir: string, file: string): string {
  return file.startsWith(`${dir}${sep}`) ? file.slice(dir.length + 1) : relative(dir, file);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Size, modification and change times and inode: an atomic save (a new file renamed over the old) changes the inode. */
function statStamp(file: string): string | undefined {
  try {
    const { size, mtimeMs, ctimeMs, ino } = statSync(file);
    return `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
  } catch {
    return undefined;
  }
}

/** Every word the labels put into compiled HTML, as one string: equal strings, equal HTML. */
function labelsText(label: MarkdownLabels): string {
  return [
    label.table(1),
    label.code(1),
    label.headingLink('h'),
    ...CALLOUT_KINDS.map((kind) => label.callout(kind)),
    label.footnotes,
    label.footnoteBack(1),
    label.copyCode(),
    label.codeCopied(),
  ].join('\0');
}

/**
 * How a page's links resolve now, as one string: what each renders to, and the mistakes
 * and fragment links resolving them reports. Equal strings: the page's links are as they
 * were when it was compiled, so its HTML, mistakes and fragment links are too.
 */
function dependencyOutcome(
  links: readonly (readonly [string, number])[],
  images: readonly (readonly [string, number])[],
  resolverFor: (
    report: (line: number, message: string) => void,
    fragmentLink: (...link: [number, string, string, string]) => void,
  ) => (href: string, line: number) => string,
  imageOutcome: (src: string) => string,
): string {
  const reported: unknown[] = [];
  const resolve = resolverFor(
    (...mistake) => reported.push(mistake),
    (...link) => reported.push(link),
  );
  return JSON.stringify([links.map(([href, line]) => resolve(href, line)), reported, images.map(([src]) => imageOutcome(src))]);
}

/** A compiled page as the page cache keeps it: its text as strings. */
function toCached(page: SourcePage, html: string, headings: Heading[], markdown: string): CachedPage['page'] {
  return { ...page, html, headings, markdown };
}

/** A page from the page cache, as a compile makes it. */
function fromCached(cached: CachedPage): SourcePage {
  const { html, headings, markdown, ...fields } = cached.page;
  return {
    ...(fields as Omit<SourcePage, 'html' | 'headings' | 'markdown'>),
    html: utf8Text(html),
    headings: () => headings as Heading[],
    markdown: utf8Text(markdown),
  };
}

function sameLinkWorld(a: LinkWorld, b: LinkWorld): boolean {
  return (
    a.read === b.read &&
    a.versions === b.versions &&
    sameMap(a.defaultKeys, b.defaultKeys) &&
    sameMap(a.draftFiles, b.draftFiles) &&
    sameKeys(a.publishedKeys, b.publishedKeys) &&
    sameKeys(a.keys, b.keys) &&
    a.slugs.size === b.slugs.size &&
    [...a.slugs].every(([locale, slugs]) => {
      const other = b.slugs.get(locale);
      return other !== undefined && sameMap(slugs, other);
    })
  );
}

function sameMap<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value || (value === undefined && !b.has(key))) return false;
  return true;
}

function sameKeys(a: { size: number; keys(): Iterable<string> }, b: { size: number; has(key: string): boolean }): boolean {
  if (a.size !== b.size) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

/** Drops what the memo holds of files that are gone, so it holds no more than one compile of the site. */
function forgetGone(memo: SiteMemo, sources: ReadonlySet<Source>, pages: ReadonlyMap<string, ReadonlyMap<string, SourcePage>>): void {
  for (const [file, { source }] of memo.sources) if (!sources.has(source)) memo.sources.delete(file);
  for (const [key, { source, page }] of memo.pages) {
    if (!sources.has(source) || pages.get(key.slice(0, key.indexOf('\0')))?.get(source.key) !== page) memo.pages.delete(key);
  }
}

/**
 * The text kept as UTF-8 bytes, outside V8's heap, and decoded when asked for. A
 * compiled site holds every page's HTML until it is written or served; as strings
 * they are copied by each young-generation collection they live through, and at
 * 2,000 pages a locale that was about 1 s of the build's 17.6 s (16.5-16.8 s as bytes,
 * in alternating runs). The snapshot keeps them as bytes too.
 */
function markdownLabels(intl: SiteIntl): MarkdownLabels {
  return {
    table: (number) => intl.formatMessage({ id: 'content.table' }, { number }),
    code: (number) => intl.formatMessage({ id: 'content.code' }, { number }),
    headingLink: (heading) => intl.formatMessage({ id: 'content.headingLink' }, { heading }),
    copyCode: () => intl.formatMessage({ id: 'content.copyCode' }),
    codeCopied: () => intl.formatMessage({ id: 'content.codeCopied' }),
    callout: (kind) => intl.formatMessage({ id: `callout.${kind}` }),
    footnotes: intl.formatMessage({ id: 'content.footnotes' }),
    footnoteBack: (number) => intl.formatMessage({ id: 'content.footnoteBack' }, { number }),
  };
}

/** Two file names that differ only in how Unicode spells a letter print alike: say so. */
const SPELLED_TWICE =
  ' (their names differ only in how a letter is encoded: one is decomposed (NFD), as macOS saves names; both are the same page)';

/**
 * `docs/guides/install.md` -> `docs/guides/install`; `docs/index.md` -> `docs`; `index.md` -> ''.
 * In NFC: a file name saved decomposed (`cafe` + U+0301, as macOS may write it) is the
 * same page as the precomposed one, at the NFC path browsers send.
 */
export function keyOf(relativeFile: string): string {
  const parts = relativeFile.split(/[\\/]/);
  const last = parts.pop()!.replace(/\.md$/, '');
  if (last !== 'index') parts.push(last);
  return parts.join('/').normalize('NFC');
}

function listMarkdown(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A file's first bytes, where its front matter is: a build thread reads all of each other locale's files for it. */
function fileHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.allocUnsafe(FRONT_MATTER_BYTES);
    return head.toString('utf8', 0, readSync(fd, head, 0, FRONT_MATTER_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** Front matter longer than this is read in part for `draft:` in fileHead (the key is near the top in practice). */
const FRONT_MATTER_BYTES = 4096;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
