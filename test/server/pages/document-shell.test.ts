import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criticalStyle, type DocumentShell, documentEnd, documentStart, shellChars } from '../../../src/server/pages/document-shell.ts';
import type { Manifest } from '../../../src/server/site/manifest.ts';
import type { Head, PageData } from '../../../src/routes/types.ts';

const CSS = `:root{color:red}${'.rule{margin:0}'.repeat(500)}`;

const manifest: Manifest = {
  build: 'b1',
  js: '/assets/main-1.js',
  css: '/assets/styles-1.css',
  criticalCss: CSS,
  icon: '/assets/favicon-1.svg',
  preload: [],
  search: {},
  images: {},
  chooser: null,
};

/** What the shell reads of a page: its locale, direction and head. */
function page(title: string): PageData {
  const head: Head = {
    title,
    description: `About ${title}`,
    canonical: `https://example.org/en/${title}`,
    alternates: [],
    links: [],
    meta: [],
    jsonLd: null,
  };
  return { locale: 'en', dir: 'ltr', head } as unknown as PageData;
}

function shellOf(title: string, style: Uint8Array): DocumentShell {
  return { before: documentStart(page(title), manifest, style), after: documentEnd(manifest, '/assets/messages-en-1.json', '{}') };
}

function text(shell: DocumentShell): string {
  return shell.before.map((part) => (typeof part === 'string' ? part : Buffer.from(part).toString())).join('') + shell.after;
}

test('every shell writes the critical CSS once, inline, from one shared Buffer, not a copy of its own', () => {
  const style = criticalStyle(manifest);
  const a = shellOf('install', style);
  const b = shellOf('configuration', style);
  for (const shell of [a, b]) {
    const html = text(shell);
    assert.equal(html.split('<style>').length, 2, 'one style element');
    assert.ok(html.includes(`<style>${CSS}</style>`), 'the critical CSS, whole');
    assert.ok(html.indexOf('<style>') < html.indexOf('</head>'));
  }
  assert.equal(a.before.filter((part) => part === style).length, 1, 'the shared Buffer itself, by reference');
  assert.equal(b.before.filter((part) => part === style).length, 1);
});

test("a shell's weight in the shell cache is its own text, without the shared CSS", () => {
  const shell = shellOf('install', criticalStyle(manifest));
  assert.equal(shellChars(shell), text(shell).length - `<style>${CSS}</style>`.length);
  assert.ok(shellChars(shell) < CSS.length);
});
