import { makePage, realMessages } from './content.ts';
import { type Files, makeVersionedRoot, versionsJson } from './versions.ts';

/** The locales of a long-section site: the default, one that localizes the section's slug, one right-to-left. */
export const LONG_SECTION_LOCALES = ['en', 'de', 'ar'] as const;

/** Pages of the site's other long section, `docs/mid`: longer than a sidebar shows, shorter than a listing page. */
export const MID_SECTION = 100;

/**
 * A versioned content root whose docs hold one flat section of `count` pages,
 * `docs/big/tool<n>` titled `tool<n>`, and one of MID_SECTION (`docs/mid/m<n>`), in the current docs and in the older version `1.0` alike. German moves the
 * section to `gross` and translates a page; Arabic translates nothing (fallbacks);
 * every locale has the site's real messages. Written from a loop: no fixture files.
 */
export function longSectionRoot(count: number): { root: string; localesDir: string } {
  const docs = (title: string): Files => {
    const files: Files = {
      'pages/docs/index.md': makePage({ title }),
      'pages/docs/big/index.md': makePage({ title: 'Big' }),
      'pages/docs/mid/index.md': makePage({ title: 'Mid' }),
    };
    for (let n = 0; n < count; n++) files[`pages/docs/big/tool${n}.md`] = makePage({ title: `tool${n}` });
    for (let n = 0; n < MID_SECTION; n++) files[`pages/docs/mid/m${n}.md`] = makePage({ title: `m${n}` });
    return files;
  };
  const german: Files = {
    'pages/docs/big/index.md': makePage({ title: 'Groß', slug: 'gross' }),
    'pages/docs/big/tool7.md': makePage({ title: 'werkzeug7' }),
  };
  const prefixed = (prefix: string, files: Files) => Object.fromEntries(Object.entries(files).map(([file, text]) => [prefix + file, text]));
  return makeVersionedRoot(
    {
      en: { 'messages.json': realMessages('en'), 'pages/index.md': makePage({ title: 'Home' }), ...docs('Docs') },
      de: { 'messages.json': realMessages('de'), ...german },
      ar: { 'messages.json': realMessages('ar') },
    },
    {
      'versions.json': versionsJson({ label: '2.0', released: true }, [{ name: '1.0', label: '1.x' }]),
      ...prefixed('1.0/en/', docs('Docs 1')),
      ...prefixed('1.0/de/', german),
    },
  );
}
