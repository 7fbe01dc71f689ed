import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeLocales, makePage, MESSAGES, messagesText, shown } from './content.ts';

// One small site per author's or translator's mistake, each with the exact problem
// the content check reports: the build and the dev server must refuse each one,
// with this message (test/server/content/load-content.test.ts).

export type ContentMistake = { name: string; dir: string; problem: string };

const HOME = { 'pages/index.md': makePage({ title: 'Home' }) };
/** The line of a key in a file messagesText wrote: one key a line, after the opening brace. */
const lineOf = (messages: Record<string, string>, key: string) => Object.keys(messages).indexOf(key) + 2;
/** Where 'docs.next' is in the fixtures' messages (MESSAGES, then it). */
const NEXT_LINE = lineOf({ ...MESSAGES, 'docs.next': '' }, 'docs.next');
const EN = { ...HOME, 'messages.json': messagesText({ ...MESSAGES, 'docs.next': 'Next: {title}' }) };

/** A Spanish translation whose messages are the English ones with `changes`. */
function spanish(changes: Record<string, string>): string {
  return makeLocales({
    en: EN,
    es: { ...HOME, 'messages.json': messagesText({ ...MESSAGES, 'docs.next': 'Siguiente: {title}', ...changes }) },
  });
}

export const CONTENT_MISTAKES: (() => ContentMistake)[] = [
  () => {
    const dir = spanish({ 'docs.next': 'Siguiente: {titulo}' });
    return {
      name: 'a renamed placeholder',
      dir,
      problem: `${shown(dir, 'es/messages.json')}:${NEXT_LINE}:28: message "docs.next": \`{titulo}\`: the en message has \`{title}\``,
    };
  },
  () => {
    const dir = spanish({ 'docs.next': 'Siguiente: {title' });
    return {
      name: 'an ICU syntax error',
      dir,
      problem: `${shown(dir, 'es/messages.json')}:${NEXT_LINE}:28: message "docs.next" does not parse: an argument is not closed: a "}" is missing (EXPECT_ARGUMENT_CLOSING_BRACE)`,
    };
  },
  () => {
    const dir = makeLocales({
      en: { ...EN, 'messages.json': messagesText({ ...MESSAGES, n: '{count, plural, one {# page} other {# pages}}' }) },
      ja: { ...HOME, 'messages.json': messagesText({ ...MESSAGES, n: '{count, plural, one {1 ページ} other {# ページ}}' }) },
    });
    return {
      name: 'a plural category the locale does not have',
      dir,
      problem: `${shown(dir, 'ja/messages.json')}:${NEXT_LINE}:25: message "n": \`{count, plural}\` has the option \`one\`, which is not a cardinal plural category of ja (it has \`other\`); write \`=1\` for exactly that number`,
    };
  },
  () => {
    const { 'error.body': _dropped, ...rest } = MESSAGES;
    const dir = makeLocales({ en: EN, de: { ...HOME, 'messages.json': messagesText({ ...rest, 'docs.next': 'Weiter: {title}' }) } });
    return {
      name: 'a missing message key',
      dir,
      problem: `${shown(dir, 'de/messages.json')}: missing message "error.body" (the en file has it, line ${lineOf(MESSAGES, 'error.body')})`,
    };
  },
  () => {
    const dir = makeLocales({
      en: { ...EN, 'pages/docs/routing.md': makePage({ title: 'Routing' }), 'pages/docs/routing/index.md': makePage({ title: 'New' }) },
    });
    return {
      name: 'two sources on one path',
      dir,
      problem: `${shown(dir, 'en/pages/docs/routing/index.md')}:1: ${shown(dir, 'en/pages/docs/routing.md')} and this file are both the page /en/docs/routing; keep one`,
    };
  },
  () => {
    // `größe.md` twice: precomposed, and decomposed (`o` + U+0308) as macOS saves names. Listed in
    // code-point order, the decomposed one (`o` < `ö`) comes first.
    const nfc = 'en/pages/docs/größe.md';
    const nfd = nfc.normalize('NFD');
    const dir = makeLocales({ en: { ...EN, [nfc.slice(3)]: makePage({ title: 'Größe' }), [nfd.slice(3)]: makePage({ title: 'Größe' }) } });
    return {
      name: 'two file names that differ only in Unicode normalization',
      dir,
      problem: `${shown(dir, nfc)}:1: ${shown(dir, nfd)} and this file are both the page /en/docs/gr%C3%B6%C3%9Fe; keep one (their names differ only in how a letter is encoded: one is decomposed (NFD), as macOS saves names; both are the same page)`,
    };
  },
  () => {
    const dir = makeLocales({
      en: { ...EN, 'pages/about.md': makePage({ title: 'About' }), 'pages/team.md': makePage({ title: 'Team' }) },
      de: {
        ...HOME,
        'messages.json': messagesText({ ...MESSAGES, 'docs.next': 'Weiter: {title}' }),
        'pages/about.md': makePage({ title: 'Über uns', slug: 'wir' }),
        'pages/team.md': makePage({ title: 'Das Team', slug: 'wir' }),
      },
    });
    return {
      name: 'a slug that collides with another page',
      dir,
      problem: `${shown(dir, 'de/pages/team.md')}:4: the path /de/wir is claimed by two pages: this one and ${shown(dir, 'de/pages/about.md')}:4`,
    };
  },
  () => {
    const dir = makeLocales({ en: EN, es: HOME });
    rmSync(join(dir, 'es/messages.json'));
    return {
      name: 'a locale folder without messages.json',
      dir,
      problem: `${shown(dir, 'es')}: the locale folder "es" has no messages.json (every key of the default locale’s, translated)`,
    };
  },
  () => {
    const dir = makeLocales({ en: EN, es: { 'messages.json': EN['messages.json'] } });
    rmSync(join(dir, 'es/pages'), { recursive: true });
    return {
      name: 'a locale folder without pages/',
      dir,
      problem: `${shown(dir, 'es')}: the locale folder "es" has no pages/ folder (it may be empty: a page missing there is served from the default locale)`,
    };
  },
  () => {
    const dir = makeLocales({ en: { ...EN, 'pages/about.md': '---\ntitle: About\norder: 2\ndescripton: Who we are.\n---\nText.\n' } });
    return {
      name: 'an unknown front matter key',
      dir,
      problem: `${shown(dir, 'en/pages/about.md')}:4: front matter has an unknown key "descripton"; did you mean "description"? (known: title, description, order, nav, date, updated, author, slug, image, draft, unlisted, keywords)`,
    };
  },
  () => {
    const dir = makeLocales({ en: { ...EN, 'pages/about.md': '---\ntitle: "About us\ndescription: Who we are.\norder: 2\n---\nText.\n' } });
    return {
      name: 'an unterminated YAML quote',
      dir,
      problem: `${shown(dir, 'en/pages/about.md')}:2:8: front matter is not valid YAML: the " quote opened here is never closed\n  2 | title: "About us\n    |        ^`,
    };
  },
];
