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

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const LLMS_TYPE = 'text/plain; charset=utf-8';

/** llms-full.txt stops adding pages past this many bytes, and says where the rest is. */
export const LLMS_FULL_MAX_BYTES = 20 * 1024 * 1024;

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
};

export function buildLlmsFiles({ site, intls, publicUrl }: Options): LlmsFiles {
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
  for (const locale of site.locales) {
    files.set(`/${locale}/llms.txt`, { type: LLMS_TYPE, body: () => indexOf(locale) });
    files.set(`/${locale}/llms-full.txt`, {
      type: LLMS_TYPE,
      body: () => Readable.from(llmsFull(locale, site, indexOf(locale), (page) => twinText(locale, page))),
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
      const twin = twinAt(path);
      return twin && { type: MARKDOWN_TYPE, body: () => twinText(twin.locale, twin.page) };
    },
    *paths() {
      yield* files.keys();
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

/** llms.txt, then every page's twin, until LLMS_FULL_MAX_BYTES; past it, a line saying where the rest is. */
function* llmsFull(locale: string, site: Site, index: string, twin: (page: SourcePage) => string): Generator<string> {
  let bytes = Buffer.byteLength(index);
  yield index;
  for (const page of site.pages.get(locale)!.values()) {
    if (page.unlisted || versionOf(site.versions, page.key)?.latest === false) continue;
    const text = `\n${twin(page)}`;
    bytes += Buffer.byteLength(text);
    if (bytes > LLMS_FULL_MAX_BYTES) {
      yield `\n<!-- llms-full.txt stops at ${LLMS_FULL_MAX_BYTES / 1024 / 1024} MB: each page listed above is at its own .md URL. -->\n`;
      return;
    }
    yield text;
  }
}

/** Text for one Markdown list item: no line breaks, no `]` that would end the link text early. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/([[\]])/g, '\\$1');
}
