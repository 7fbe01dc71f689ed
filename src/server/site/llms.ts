import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { languageName, type SiteIntl } from '../../i18n/intl.ts';
import { twinPath } from '../../routes/twin.ts';
import { markdownTwin, SITE_ORIGIN_MARK } from '../content/markdown-twin.ts';
import type { Site, SourcePage } from '../content/site.ts';
import { type DocsVersion, versionOf } from '../content/versions.ts';

// Markdown for tools and language models, per locale (the llms.txt proposal,
// https://llmstxt.org): `/<locale>/llms.txt` lists the locale's pages by section with
// title, URL and description; `/llms.txt` is the default locale's; `/<locale>/llms-full.txt`
// is every page's Markdown in one file; and each page has a Markdown twin at its path
// plus `.md` (`/de/docs/anleitungen/installation.md`; a locale's home at
// `/<locale>/index.md`). Neither is in the sitemap (it lists pages for search engines);
// each page's head names its twin (`<link rel="alternate" type="text/markdown">`).
// With docs versions, a locale's llms.txt and llms-full.txt hold the latest release's docs
// and link each other version's own llms.txt (`/<locale>/docs/<name>/llms.txt`), which
// lists that version's docs; every version's pages have their twins.
// A locale whose llms-full.txt would pass its cap (LLMS_FULL_MAX_KB) gets one full file per
// section instead, under the section's path (`/de/docs/anleitungen/llms-full.txt`, also
// `/<locale>/docs/llms-full.txt` for the docs' top-level pages and `/<locale>/blog/llms-full.txt`),
// each capped the same way; its llms-full.txt then holds the index and links them.

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const LLMS_TYPE = 'text/plain; charset=utf-8';

/** One answer: its content type and body (a stream for llms-full.txt, made as it is sent). */
export type LlmsAnswer = { type: string; body: () => string | Readable };

export type LlmsFiles = {
  /** The file at this exact path (percent-encoded, as pages are served), if any. */
  at(path: string): LlmsAnswer | undefined;
  /** Every path it answers: what a static export writes. */
  paths(): Iterable<string>;
};

export { twinPath };

/** twinPath for a canonical page path whose locale is its first segment. */
export function twinOfPagePath(pagePath: string): string {
  return pagePath.indexOf('/', 1) === -1 ? `${pagePath}/index.md` : `${pagePath}.md`;
}

type Options = {
  site: Site;
  intls: ReadonlyMap<string, SiteIntl>;
  publicUrl: string;
  /** Past this many bytes, llms-full.txt links per-section files; a section's file stops there, saying so. */
  fullMaxBytes: number;
};

/** A part of a locale's pages with a full file of its own when llms-full.txt is over its cap. */
type FullSection = { key: string; title: string; path: string; pages: SourcePage[] };

export function buildLlmsFiles({ site, intls, publicUrl, fullMaxBytes }: Options): LlmsFiles {
  const { pathOf } = site.paths;
  /**
   * The page whose twin is at `path`: found through the site's paths, as pages are (a map of
   * every page's twin made at start-up cost a string and an entry per page of every docs
   * version). Only a page's own path plus `.md` is a twin: no redirect, no other spelling.
   */
  const twinAt = (path: string): { locale: string; page: SourcePage } | undefined => {
    const locale = path.slice(1, path.indexOf('/', 1));
    const pages = site.pages.get(locale);
    if (!pages || !path.endsWith('.md')) return undefined;
    const home = pages.get('');
    if (path === `/${locale}/index.md` && home) return { locale, page: home };
    let slug: string;
    try {
      slug = decodeURIComponent(path.slice(locale.length + 2, -'.md'.length));
    } catch {
      return undefined;
    }
    const found = site.paths.find(locale, slug);
    const page = found && pages.get(found.key);
    return page && twinPath(pathOf(locale, found.key), locale) === path ? { locale, page } : undefined;
  };
  const twinText = (locale: string, page: SourcePage) => twinOf(page, locale, site, publicUrl);
  const indexes = new Map<string, string>();
  const indexOf = (locale: string, version?: DocsVersion) => {
    const id = version ? `${locale}@${version.name}` : locale;
    let text = indexes.get(id);
    if (text === undefined) {
      text = llmsIndex(locale, site, intls.get(locale)!, publicUrl, version);
      indexes.set(id, text);
    }
    return text;
  };
  const files = new Map<string, LlmsAnswer>();
  // Whether a locale's full text passes the cap: known only by making it, so made once, on
  // the first request that needs it (one llms-full.txt's worth of work), and kept as a flag.
  const overCap = new Map<string, boolean>();
  const isOverCap = (locale: string) => {
    let over = overCap.get(locale);
    if (over === undefined) {
      let bytes = Buffer.byteLength(indexOf(locale));
      for (const page of fullPages(site, locale)) {
        bytes += Buffer.byteLength(twinText(locale, page)) + 1;
        if (bytes > fullMaxBytes) break;
      }
      over = bytes > fullMaxBytes;
      overCap.set(locale, over);
    }
    return over;
  };
  // Each locale's sections and their files' paths: made on the first request that needs them.
  let sectionIndex: { of: Map<string, FullSection[]>; byPath: Map<string, { locale: string; section: FullSection }> } | undefined;
  const sectionsOf = () => {
    if (!sectionIndex) {
      sectionIndex = { of: new Map(), byPath: new Map() };
      for (const locale of site.locales) {
        const sections = fullSections(site, locale, intls.get(locale)!);
        sectionIndex.of.set(locale, sections);
        for (const section of sections) sectionIndex.byPath.set(section.path, { locale, section });
      }
    }
    return sectionIndex;
  };
  for (const locale of site.locales) {
    files.set(`/${locale}/llms.txt`, { type: LLMS_TYPE, body: () => indexOf(locale) });
    files.set(`/${locale}/llms-full.txt`, {
      type: LLMS_TYPE,
      body: () => {
        const twin = (page: SourcePage) => twinText(locale, page);
        const text = isOverCap(locale)
          ? sectionList(indexOf(locale), sectionsOf().of.get(locale)!, intls.get(locale)!, publicUrl)
          : capped(indexOf(locale), fullPages(site, locale), twin, fullMaxBytes);
        return Readable.from(text);
      },
    });
    for (const version of olderVersions(site)) {
      files.set(versionLlmsPath(site, locale, version), { type: LLMS_TYPE, body: () => indexOf(locale, version) });
    }
  }
  files.set('/llms.txt', files.get(`/${site.defaultLocale}/llms.txt`)!);
  return {
    at(path) {
      const file = files.get(path);
      if (file) return file;
      const full = path.endsWith('.txt') ? sectionsOf().byPath.get(path) : undefined;
      if (full && isOverCap(full.locale)) {
        const { locale, section } = full;
        const heading = `# ${oneLine(section.title)}\n`;
        return {
          type: LLMS_TYPE,
          body: () => Readable.from(capped(heading, section.pages, (page) => twinText(locale, page), fullMaxBytes)),
        };
      }
      const twin = twinAt(path);
      return twin && { type: MARKDOWN_TYPE, body: () => twinText(twin.locale, twin.page) };
    },
    *paths() {
      yield* files.keys();
      for (const [path, { locale }] of sectionsOf().byPath) if (isOverCap(locale)) yield path;
      const twins = new Set<string>();
      for (const [locale, pages] of site.pages) for (const key of pages.keys()) twins.add(twinPath(pathOf(locale, key), locale));
      yield* twins;
    },
  };
}

/** A strong validator for a body made from the content (the twins, llms.txt). */
export function llmsEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** The sections of llms.txt, in order: docs, blog, then the other pages. */
const SECTIONS = [
  { label: 'nav.docs', has: (key: string) => key === 'docs' || key.startsWith('docs/') },
  { label: 'nav.blog', has: (key: string) => key === 'blog' || key.startsWith('blog/') },
  { label: 'llms.pages', has: () => true },
];

/**
 * `# Site name`, `> tagline`, then an `## ` section per part of the site with a line per
 * page: `- [Title](twin URL): description`, and for a page the locale shows in another
 * language (a fallback), that language's name.
 */
function llmsIndex(locale: string, site: Site, intl: SiteIntl, publicUrl: string, version?: DocsVersion): string {
  const t = (id: string) => intl.formatMessage({ id });
  const lines = [`# ${t('site.name')}${version ? ` ${version.label}` : ''}`, '', `> ${t('site.tagline')}`];
  // A version's own llms.txt: its docs only. The locale's: every page but older versions' docs.
  const left = [...site.pages.get(locale)!.values()].filter((page) => {
    if (page.unlisted) return false;
    const of = versionOf(site.versions, page.key);
    return version ? of === version : of?.latest !== false;
  });
  for (const section of SECTIONS) {
    const pages = left.filter((page) => section.has(page.key));
    if (!pages.length) continue;
    for (const page of pages) left.splice(left.indexOf(page), 1);
    lines.push('', `## ${t(section.label)}`, '');
    for (const page of pages) {
      const url = publicUrl + twinPath(site.paths.pathOf(locale, page.key), locale);
      const language = page.contentLocale === locale ? '' : ` (${languageName(intl, page.contentLocale)})`;
      lines.push(`- [${oneLine(page.title)}](${url})${language}: ${oneLine(page.description)}`);
    }
  }
  const others = version ? [] : olderVersions(site);
  if (others.length) {
    lines.push('', `## ${t('llms.versions')}`, '');
    for (const other of others) lines.push(`- [${oneLine(other.label)}](${publicUrl}${versionLlmsPath(site, locale, other)})`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every docs version but the latest release, newest first. */
function olderVersions(site: Site): DocsVersion[] {
  return site.versions.filter((version) => !version.latest);
}

/** A version's own llms.txt, under its docs' path in the locale (`/de/docs/0.1/llms.txt`). */
export function versionLlmsPath(site: Site, locale: string, version: DocsVersion): string {
  return `${site.paths.pathOf(locale, version.mount)}/llms.txt`;
}

/**
 * A page's twin as served: front matter with its title, description, the language its
 * text is in, its canonical URL (a fallback's is the original's, as its HTML says) and
 * when it last changed, then its flattened body.
 */
function twinOf(page: SourcePage, locale: string, site: Site, publicUrl: string): string {
  return markdownTwin(
    {
      title: page.title,
      description: page.description,
      language: page.contentLocale,
      canonical: publicUrl + site.paths.pathOf(page.contentLocale === locale ? locale : page.contentLocale, page.key),
      lastUpdated: page.lastUpdated,
    },
    page.markdown().replaceAll(SITE_ORIGIN_MARK, publicUrl),
  );
}

/** The pages llms-full.txt holds, in order: every listed page of the locale but older versions' docs. */
function* fullPages(site: Site, locale: string): Generator<SourcePage> {
  for (const page of site.pages.get(locale)!.values()) {
    if (page.unlisted || versionOf(site.versions, page.key)?.latest === false) continue;
    yield page;
  }
}

/**
 * The locale's full pages in sections, in their order: the docs' top-level pages, then each
 * docs folder (`docs/<folder>`, titled by its page), the blog, then the other pages.
 */
function fullSections(site: Site, locale: string, intl: SiteIntl): FullSection[] {
  const pages = site.pages.get(locale)!;
  const docs = site.versions.find((version) => version.latest)?.mount ?? 'docs';
  const depth = docs.split('/').length;
  // The docs' folders: `docs/<folder>` of every key deeper than it.
  const folders = new Set<string>();
  for (const key of pages.keys()) {
    const parts = key.split('/');
    if (parts.length > depth + 1 && key.startsWith(`${docs}/`)) folders.add(parts.slice(0, depth + 1).join('/'));
  }
  const sectionOf = (key: string) => {
    if (key === 'blog' || key.startsWith('blog/')) return 'blog';
    if (key !== docs && !key.startsWith(`${docs}/`)) return '';
    const folder = key
      .split('/')
      .slice(0, depth + 1)
      .join('/');
    return folders.has(folder) ? folder : docs;
  };
  const sections = new Map<string, FullSection>();
  for (const page of fullPages(site, locale)) {
    const key = sectionOf(page.key);
    let section = sections.get(key);
    if (!section) {
      const title = key === '' ? intl.formatMessage({ id: 'llms.pages' }) : (pages.get(key)?.title ?? key);
      // The other pages' file sits at the locale's root; a section's, under the section's path.
      const path = key === '' ? `/${locale}/llms-full-pages.txt` : `${site.paths.pathOf(locale, key)}/llms-full.txt`;
      section = { key, title, path, pages: [] };
      sections.set(key, section);
    }
    section.pages.push(page);
  }
  const rank = ({ key }: FullSection) => (key === docs ? 0 : key === 'blog' ? 2 : key === '' ? 3 : 1);
  return [...sections.values()].sort((a, b) => rank(a) - rank(b));
}

/** `head`, then each page's twin, until `maxBytes`; past it, a line saying where the rest is. */
function* capped(head: string, pages: Iterable<SourcePage>, twin: (page: SourcePage) => string, maxBytes: number): Generator<string> {
  let bytes = Buffer.byteLength(head);
  yield head;
  for (const page of pages) {
    const text = `\n${twin(page)}`;
    bytes += Buffer.byteLength(text);
    if (bytes > maxBytes) {
      yield `\n<!-- This file stops at ${Math.floor(maxBytes / 1024)} KB: each page listed in llms.txt is at its own .md URL. -->\n`;
      return;
    }
    yield text;
  }
}

/** An over-cap locale's llms-full.txt: its llms.txt, then a link to each section's full file. */
function sectionList(index: string, sections: FullSection[], intl: SiteIntl, publicUrl: string): string {
  const lines = ['', `## ${intl.formatMessage({ id: 'llms.fullSections' })}`, ''];
  for (const section of sections) lines.push(`- [${oneLine(section.title)}](${publicUrl}${section.path})`);
  return `${index}${lines.join('\n')}\n`;
}

/** Text for one Markdown list item: no line breaks, no `]` that would end the link text early. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/([[\]])/g, '\\$1');
}
