import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ContentError } from './errors.ts';
import { splitFrontMatter, type FrontMatter } from './front-matter.ts';
import { makeIntl } from '../../i18n/intl.ts';
import type { Heading } from '../../routes/types.ts';
import type { MessageCatalog } from '../messages.ts';
import { renderMarkdown, textLength, type MarkdownLabels } from './markdown.ts';
import { type Section, sectionsOf } from './sections.ts';
import { readRecord, sourceFingerprint, type TranslationRecord } from './translation-record.ts';

/**
 * All Markdown of all locales, compiled once at start-up. A request never reads a
 * file or runs Markdown: it looks a page up in `Site.pages`.
 */
export type SourcePage = FrontMatter & {
  /** Decoded slug, '' for the locale's home. */
  slug: string;
  /** The locale the text is written in (differs from the serving locale for a fallback). */
  contentLocale: string;
  /**
   * The compiled HTML. A function, so that a large site's pages can stay on disk
   * (in the built snapshot) until a request needs one; see snapshot.ts.
   */
  html: () => string;
  /** Every heading of the body, in order, as compiled (ids match the HTML). */
  headings: Heading[];
  /**
   * The text cut at its headings, for the search index the build makes. The built
   * snapshot leaves it out (the index files hold it), so a server started from a
   * build has it empty.
   */
  sections: Section[];
  textLength: number;
  file: string;
  /** The fingerprint of this page's own source text (see translation-record.ts). */
  fingerprint: string;
  /** For a translation: the source fingerprint its record holds; undefined when it has none. */
  recorded?: string;
};

export type Site = {
  locales: readonly string[];
  defaultLocale: string;
  /** Per serving locale: every slug it serves, its own page or the default locale's. */
  pages: ReadonlyMap<string, ReadonlyMap<string, SourcePage>>;
  /** Per slug: the locales that have a real translation. */
  translations: ReadonlyMap<string, readonly string[]>;
};

type Source = { locale: string; slug: string; file: string; front: FrontMatter; body: string; bodyLine: number };

/** `messages` name the boxes and anchors the compiled HTML carries (see MarkdownLabels). */
export function loadSite(localesDir: string, locales: readonly string[], defaultLocale: string, messages: MessageCatalog): Site {
  const problems: string[] = [];
  const labels = new Map(locales.map((locale) => [locale, markdownLabels(locale, messages)]));
  const sources: Source[] = [];
  for (const locale of locales) {
    const pagesDir = join(localesDir, locale, 'pages');
    for (const file of listMarkdown(pagesDir)) {
      const display = relative(process.cwd(), file) || file;
      try {
        const { data, body, bodyLine } = splitFrontMatter(readFileSync(file, 'utf8'), display);
        sources.push({ locale, slug: slugOf(relative(pagesDir, file)), file: display, front: data, body, bodyLine });
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }

  const records = new Map<string, TranslationRecord>();
  for (const locale of locales) {
    if (locale === defaultLocale) continue;
    try {
      records.set(locale, readRecord(localesDir, locale));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }

  const recordOf = (locale: string, slug: string) => {
    const record = records.get(locale);
    return record && Object.hasOwn(record, slug) ? { recorded: record[slug]! } : {};
  };

  const translations = new Map<string, string[]>();
  for (const source of sources) translations.set(source.slug, [...(translations.get(source.slug) ?? []), source.locale]);

  const pages = new Map<string, Map<string, SourcePage>>(locales.map((locale) => [locale, new Map()]));
  const compile = (source: Source, servingLocale: string) => {
    // Links are prefixed with the serving locale, so a fallback page keeps the reader in their language;
    // labels are in the content's language, the `lang` its article is marked with.
    const { html, links, headings, tokens } = renderMarkdown(source.body, {
      locale: servingLocale,
      labels: labels.get(source.locale)!,
      lineOffset: source.bodyLine,
    });
    if (servingLocale === source.locale) {
      for (const link of links) {
        const target = link.href.replace(/[?#].*$/, '').replace(/^\/|\/$/g, '');
        if (!translations.has(safeDecode(target))) {
          problems.push(`${source.file}:${link.line}: link to ${link.href}, a page that exists in no locale`);
        }
      }
    }
    pages.get(servingLocale)!.set(source.slug, {
      ...source.front,
      slug: source.slug,
      contentLocale: source.locale,
      html: () => html,
      headings,
      sections: sectionsOf(tokens),
      textLength: textLength(source.body),
      file: source.file,
      fingerprint: sourceFingerprint({ ...source.front, body: source.body }),
      ...(servingLocale === source.locale && recordOf(source.locale, source.slug)),
    });
  };
  for (const source of sources) compile(source, source.locale);
  // A page missing in a locale but present in the default one is served from the default.
  for (const source of sources) {
    if (source.locale !== defaultLocale) continue;
    for (const locale of locales) if (!pages.get(locale)!.has(source.slug)) compile(source, locale);
  }

  if (problems.length) throw new ContentError(problems);
  return { locales, defaultLocale, pages, translations };
}

function markdownLabels(locale: string, messages: MessageCatalog): MarkdownLabels {
  const intl = makeIntl(locale, messages.get(locale) ?? {});
  return {
    table: (number) => intl.formatMessage({ id: 'content.table' }, { number }),
    code: (number) => intl.formatMessage({ id: 'content.code' }, { number }),
    headingLink: (heading) => intl.formatMessage({ id: 'content.headingLink' }, { heading }),
  };
}

/** `docs/guides/install.md` -> `docs/guides/install`; `docs/index.md` -> `docs`; `index.md` -> ''. */
export function slugOf(relativeFile: string): string {
  const parts = relativeFile.split(/[\\/]/);
  const last = parts.pop()!.replace(/\.md$/, '');
  if (last !== 'index') parts.push(last);
  return parts.join('/');
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

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
