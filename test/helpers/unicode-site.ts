import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLocales, makePage } from './content.ts';
import { ROOT } from './server.ts';

// Letters that Unicode spells two ways: precomposed (NFC, `ü` as U+00FC, what keyboards
// and our paths use) and decomposed (NFD, `u` + U+0308, what macOS file names and some
// input methods give), in slugs and in file and folder names.

const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));

/** Saved as macOS saves names: decomposed. */
const nfd = (name: string) => name.normalize('NFD');

/**
 * A site whose German and French pages have accented slugs (the German docs folder too,
 * so its children follow), and English files and a folder whose names are saved in NFD:
 * `docs/café.md`, `docs/größe.md` and `docs/übersicht/` (a section with its `_section.yml`),
 * linked to from other pages in both spellings.
 */
export function makeAccentedSite(): string {
  return makeLocales({
    en: {
      'messages.json': messages('en'),
      'pages/index.md': makePage({ title: 'Home' }),
      'pages/about.md': makePage({ title: 'About' }),
      'pages/docs/index.md': makePage({ title: 'Docs' }),
      // Links typed precomposed, to files saved decomposed (relative and by path).
      'pages/docs/install.md': makePage({ title: 'Install' }, 'See [the size](./größe.md) and [the overview](/docs/übersicht/start).\n'),
      [nfd('pages/docs/café.md')]: makePage({ title: 'Café' }),
      [nfd('pages/docs/größe.md')]: makePage({ title: 'Größe' }),
      [nfd('pages/docs/übersicht/_section.yml')]: 'label: The overview\n',
      // In a folder saved decomposed, a link typed decomposed too.
      [nfd('pages/docs/übersicht/start.md')]: makePage({ title: 'Start here' }, nfd('Back to [the size](../größe.md).\n')),
    },
    de: {
      'messages.json': messages('de'),
      'pages/index.md': makePage({ title: 'Start' }),
      'pages/about.md': makePage({ title: 'Über uns', slug: 'über-uns' }),
      'pages/docs/index.md': makePage({ title: 'Doku', slug: 'dokumentation-für-alle' }),
      'pages/docs/install.md': makePage({ title: 'Installation', slug: 'einführung' }),
      // Its translation, saved precomposed: the same page.
      'pages/docs/café.md': makePage({ title: 'Kaffee' }, 'Auf Deutsch.\n'),
    },
    fr: {
      'messages.json': messages('fr'),
      'pages/index.md': makePage({ title: 'Accueil' }),
      // Written decomposed, as a file saved on macOS may hold it: served at the NFC path all the same.
      'pages/about.md': makePage({ title: 'À propos', slug: nfd('à-propos') }),
    },
  });
}

/** A path as a browser puts it on the wire: each segment percent-encoded, in the given normalization form. */
export const wire = (path: string, form: 'NFC' | 'NFD') => path.normalize(form).split('/').map(encodeURIComponent).join('/');
