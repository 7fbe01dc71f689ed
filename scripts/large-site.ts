// A generated site of any size, for measuring polysite at scale (`npm run bench -- --pages N`):
// the default site's locales, plus, per locale, a reference section of nested docs pages
// (`docs/ref/<section>/<page>`) and blog posts, each a copy of a real page of that locale
// with internal links to its neighbours.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Pages per docs section: about what large documentation sites put in one sidebar group. */
const PAGES_PER_SECTION = 50;
/** Share of the generated pages that are blog posts rather than docs. */
const POST_SHARE = 0.05;

/** Writes a locales folder with about `pagesPerLocale` pages in each locale; returns its path. */
export function generateLargeSite(sourceLocalesDir: string, pagesPerLocale: number): string {
  const root = mkdtempSync(join(tmpdir(), 'polysite-large-'));
  cpSync(sourceLocalesDir, root, { recursive: true });
  const locales = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const locale of locales) {
    const pagesDir = join(root, locale, 'pages');
    const existing = readdirSync(pagesDir, { recursive: true }).filter((file) => String(file).endsWith('.md')).length;
    const wanted = Math.max(0, pagesPerLocale - existing);
    const posts = Math.round(wanted * POST_SHARE);
    writeDocs(pagesDir, wanted - posts, readBody(join(pagesDir, 'docs/routing.md')), locale);
    writePosts(pagesDir, posts, readBody(join(pagesDir, 'blog/introducing-polysite.md')));
  }
  return root;
}

function writeDocs(pagesDir: string, count: number, body: string, locale: string): void {
  if (count <= 0) return;
  const sections = Math.ceil(count / (PAGES_PER_SECTION + 1));
  writePage(join(pagesDir, 'docs/ref/index.md'), { title: 'Reference', description: 'Every generated page.', order: 90 }, body);
  let written = 1;
  for (let s = 0; s < sections && written < count; s++) {
    const section = `s${String(s).padStart(3, '0')}`;
    writePage(join(pagesDir, `docs/ref/${section}/index.md`), { title: `Section ${s}`, description: `Section ${s}.`, order: s }, body);
    written++;
    const inSection = Math.min(PAGES_PER_SECTION, count - written);
    for (let p = 0; p < inSection; p++, written++) {
      const next = `/docs/ref/${section}/p${(p + 1) % inSection}`;
      const links = `\nSee also [the next page](${next}) and [the section](/docs/ref/${section}).\n${codeBlock(locale, s, p)}`;
      writePage(
        join(pagesDir, `docs/ref/${section}/p${p}.md`),
        { title: `Page ${s}.${p}`, description: `Generated page ${p} of section ${s}.`, order: p },
        body + links,
      );
    }
  }
}

/**
 * A highlighted block of its own on each generated page, as reference pages have: no two
 * pages share one, in any locale (a translation's code is often the same as its source's,
 * which the build highlights once: that would measure less work than there is).
 */
function codeBlock(locale: string, section: number, page: number): string {
  return [
    '',
    `\`\`\`ts {2} title="ref/s${section}/p${page}.ts"`,
    `import { definePage, type PageOptions } from '../s${section}/index.ts';`,
    `export const options: PageOptions = { section: ${section}, page: ${page}, title: 'Page ${section}.${page}' };`,
    `export default definePage(options, (context) => context.render(\`<p>\${context.title}</p>\`)); // ${locale} ${page * 7 + section}`,
    '```',
    '',
  ].join('\n');
}

function writePosts(pagesDir: string, count: number, body: string): void {
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    writePage(
      join(pagesDir, `blog/generated-${i}.md`),
      { title: `Post ${i}`, description: `Generated post ${i}.`, date, author: 'polysite' },
      `${body}\n[Reference](/docs/ref)\n`,
    );
  }
}

function writePage(file: string, front: Record<string, string | number>, body: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const yaml = Object.entries(front)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
  writeFileSync(file, `---\n${yaml}\n---\n${body}`);
}

/** A page's Markdown without its front matter. */
function readBody(file: string): string {
  const text = readFileSync(file, 'utf8');
  return text.slice(text.indexOf('\n---', 3) + 4).trimStart();
}

/** The flat shape's sections (`docs/<name>/`) and how many pages each has in the default locale, at full size. */
const FLAT_SECTIONS = [
  { name: 'commands', title: 'Commands', pages: 5000 },
  { name: 'linux', title: 'Linux commands', pages: 2000 },
];
/** The flat shape's pages in the default locale at full size (`generateFlatSite`'s scale 1). */
export const FLAT_PAGES = FLAT_SECTIONS.reduce((sum, section) => sum + section.pages, 0);
/**
 * A section of 50 pages of the same kind, whatever the scale: what a page of the large
 * section is compared with (the same text, the same server, a small section's sidebar).
 */
export const FLAT_SMALL_SECTION = { name: 'builtins', title: 'Shell built-ins', pages: 50 };
/** Share of the default locale's generated pages each other locale translates (real trees are 6-27 % translated). */
const FLAT_TRANSLATED: readonly number[] = [0.27, 0.18, 0.1, 0.06];

/**
 * Writes a locales folder shaped like real docs trees (`npm run bench -- --shape flat`): the
 * default site, plus in `defaultLocale` one flat section of `5,000 × scale` cheat-sheet pages,
 * one of `2,000 × scale` and one of 50 (FLAT_SMALL_SECTION), each page a few commands in code lines with bracketed
 * mnemonics (`E[x]tract`); each other locale translates a different small share of them
 * (27, 18, 10, 6 %, in the order of the folder's locales), so most of their pages are the
 * default locale's, served as fallbacks. Returns its path.
 */
export function generateFlatSite(sourceLocalesDir: string, defaultLocale: string, scale = 1): string {
  const root = mkdtempSync(join(tmpdir(), 'polysite-flat-'));
  cpSync(sourceLocalesDir, root, { recursive: true });
  const others = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== defaultLocale)
    .map((entry) => entry.name)
    .sort();
  let made = 0;
  for (const [s, section] of [...FLAT_SECTIONS, FLAT_SMALL_SECTION].entries()) {
    const count = section === FLAT_SMALL_SECTION ? section.pages : Math.max(1, Math.round(section.pages * scale));
    const indexBody = `Every ${section.title.toLowerCase()} page, one command each.\n`;
    writePage(
      join(root, defaultLocale, 'pages/docs', section.name, 'index.md'),
      { title: section.title, description: indexBody.trim(), order: 50 + s },
      indexBody,
    );
    for (const locale of others) {
      writePage(
        join(root, locale, 'pages/docs', section.name, 'index.md'),
        { title: `${section.title} (${locale})`, description: indexBody.trim(), order: 50 + s },
        indexBody,
      );
    }
    for (let p = 0; p < count; p++, made++) {
      const name = commandName(made);
      const file = join('pages/docs', section.name, `${name}.md`);
      const front = { title: name, description: `\`${name}\`: a generated command, with examples.` };
      writePage(join(root, defaultLocale, file), front, cheatSheet(name, section.name));
      for (const [l, locale] of others.entries()) {
        // Each locale translates its own spread of pages: every (1 / share)th, offset by the locale.
        const share = FLAT_TRANSLATED[l % FLAT_TRANSLATED.length]!;
        if (Math.floor((made + l) * share) !== Math.floor((made + l - 1) * share)) {
          writePage(
            join(root, locale, file),
            { ...front, description: `\`${name}\` (${locale}).` },
            cheatSheet(name, section.name, locale),
          );
        }
      }
    }
  }
  return root;
}

const SYLLABLES = ['ta', 'r', 'ls', 'gre', 'p', 'sed', 'aw', 'k', 'cu', 'rl', 'zi', 'mv', 'ch', 'ow', 'n', 'df', 'du', 'ps', 'top', 'xa'];

/** A distinct command-like name for each number (`tar`, `grep`-like strings). */
function commandName(n: number): string {
  let name = '';
  let rest = n;
  do {
    name += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  } while (rest > 0);
  return `${name}${n % 7 === 0 ? '-cli' : ''}`;
}

/** A cheat sheet as the public corpora write them: a line, then commands under bracketed mnemonics. */
function cheatSheet(name: string, section: string, locale?: string): string {
  const lines = [
    `> ${name} handles archives and files${locale ? ` (${locale})` : ''}.`,
    `> More information: <https://example.com/${section}/${name}>.`,
    '',
  ];
  const verbs = ['E[x]tract', '[c]reate', '[l]ist', '[v]erbose', '[f]ile'];
  for (const [i, verb] of verbs.entries()) {
    lines.push(`- ${verb} an archive with ${name}:`, '', '```sh', `${name} -${verb.match(/\[(.)\]/)![1]} path/to/file${i}.tar`, '```', '');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A large site (generateLargeSite) with `versions` versions of its docs (`npm run bench --
 * --pages N --versions V`): the current docs are the latest release, and each of the
 * `versions - 1` older ones is a copy of every locale's docs under `versions/<name>/`, as
 * `npm run version` makes it. Returns the folder holding `locales/` and `versions/`, and
 * the older versions' names.
 */
export function generateVersionedSite(
  sourceLocalesDir: string,
  pagesPerLocale: number,
  versions: number,
): { root: string; localesDir: string; names: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'polysite-versioned-'));
  const localesDir = join(root, 'locales');
  renameSync(generateLargeSite(sourceLocalesDir, pagesPerLocale), localesDir);
  const names = Array.from({ length: versions - 1 }, (_, i) => `${versions - 1 - i}.0`);
  for (const name of names) {
    for (const locale of readdirSync(localesDir)) {
      const docs = join(localesDir, locale, 'pages', 'docs');
      cpSync(docs, join(root, 'versions', name, locale, 'pages', 'docs'), { recursive: true });
    }
  }
  const list = { current: { label: `${versions}.0`, released: true }, versions: names.map((name) => ({ name })) };
  writeFileSync(join(root, 'versions', 'versions.json'), `${JSON.stringify(list, null, 2)}\n`);
  return { root, localesDir, names };
}

/** A generated German docs page in the reference's eleventh section (`/de/docs/ref/s010/p5` at 2,000 pages a locale), or as near as a smaller site has. */
export function generatedPage(localesDir: string): string {
  const ref = join(localesDir, 'de', 'pages', 'docs', 'ref');
  const sections = existsSync(ref)
    ? readdirSync(ref)
        .filter((name) => /^s\d+$/.test(name))
        .sort()
    : [];
  // N counts the default site's own pages, so a small N generates no section at all.
  if (sections.length === 0) throw new Error('--pages: too few pages to generate a section beside the default site (try 500 or more)');
  const section = sections[Math.min(10, sections.length - 1)]!;
  const page = existsSync(join(ref, section, 'p5.md')) ? 'p5' : 'p0';
  return `/de/docs/ref/${section}/${page}`;
}
