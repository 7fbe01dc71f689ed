import {
  ANNOUNCER_ELEMENT_ID,
  DEFERRED_CSS_ELEMENT_ID,
  FOOTER_ELEMENT_ID,
  PAYLOAD_ELEMENT_ID,
  PROGRESS_ELEMENT_ID,
  ROOT_ELEMENT_ID,
} from '../../routes/page-data.ts';
import type { HeadTag, PageData } from '../../routes/types.ts';
import { escapeHtml } from '../escape-html.ts';
import type { Manifest } from '../site/manifest.ts';
import { HEAD_SCRIPT_URL, SCRIPTS_TEMPLATE_ID } from './head-script.ts';

/**
 * The HTML document around the app, as two strings: everything before #root
 * (the head, and the progress bar and announcer the client drives by hand) and
 * everything after it (the embedded page data and the entry script). The browser
 * hydrates #root only, so React renders just that part (render.ts); the shell is
 * plain text, made without React. No inline script: the head's (the theme, and the loader of
 * the page's scripts) is a file (head-script.ts); the data is JSON in a non-executed script
 * element.
 */
export type DocumentShell = { before: readonly ShellPart[]; after: string };

/**
 * A part of a shell: the page's own text, or the `<style>` element of the critical CSS, the
 * same bytes for every page (criticalStyle): one Buffer all shells share, by reference.
 */
export type ShellPart = string | Uint8Array;

/**
 * The critical CSS as the `<style>` element every page inlines (the CSP allows it by its
 * hash; start-up checks it holds no `</style`, manifest.ts): made once per server, as
 * bytes, and written by every render without being copied into any page's shell.
 */
export function criticalStyle(manifest: Manifest): Uint8Array {
  return Buffer.from(`<style>${manifest.criticalCss}</style>`);
}

/** What a shell keeps of its own: its characters, without the shared style element. */
export function shellChars(shell: DocumentShell): number {
  let chars = shell.after.length;
  for (const part of shell.before) if (typeof part === 'string') chars += part.length;
  return chars;
}

/**
 * Everything before #root: the same at every render of a page. `style` is criticalStyle's,
 * shared.
 */
export function documentStart({ locale, dir, head }: PageData, manifest: Manifest, style: Uint8Array): readonly ShellPart[] {
  const attr = escapeHtml;
  const alternates = head.alternates.map(
    ({ hreflang, href }) => `<link rel="alternate" hreflang="${attr(hreflang)}" href="${attr(href)}">`,
  );
  const own = [
    `<!DOCTYPE html><html lang="${attr(locale)}" dir="${dir}"><head>`,
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    // A blocking classic script, so the page is painted in the reader's theme from the start.
    // At the head's start, so its request leaves while the rest of the document still arrives
    // (the critical CSS is inlined: there is no stylesheet request to pair it with); and before
    // the title, outside the run of per-page elements a client navigation rewrites.
    `<script src="${attr(HEAD_SCRIPT_URL)}"></script>`,
    `<title>${escapeHtml(head.title)}</title>`,
    // From here to the icon: the elements that depend on the page, and only those
    // (src/client/head.ts replaces exactly this run after a client navigation).
    `<meta name="description" content="${attr(head.description)}">`,
    head.canonical ? `<link rel="canonical" href="${attr(head.canonical)}">` : '<meta name="robots" content="noindex">',
    ...alternates,
    ...head.links.map((link) => tag('link', link)),
    ...head.meta.map((meta) => tag('meta', meta)),
    // Already escaped like the page data (structured-data.ts): no text in it can end the element.
    head.jsonLd ? `<script type="application/ld+json">${head.jsonLd}</script>` : '',
    `<link rel="icon" href="${attr(manifest.icon)}" type="image/svg+xml">`,
  ].join('');
  const rest = [
    // No frame until the footer is parsed, so <main> is whole (Chromium 124+; others ignore
    // it): a document that arrives or parses in pieces is not painted half-way, with a table's
    // columns, the header's rows or the docs grid sized for the part parsed so far, and moved.
    `<link rel="expect" href="#${FOOTER_ELEMENT_ID}" blocking="render">`,
    // The rest of the CSS (what only the script shows, and print) comes with the page's scripts
    // (documentEnd), after the first paint. A reader without script gets it here, for print.
    `<noscript><link rel="stylesheet" href="${attr(manifest.css)}" media="print"></noscript>`,
    '</head><body>',
    // Outside #root: the client drives these by hand during navigations.
    `<div id="${PROGRESS_ELEMENT_ID}" class="progress" hidden></div>`,
    `<div id="${ANNOUNCER_ELEMENT_ID}" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>`,
    `<div id="${ROOT_ELEMENT_ID}">`,
  ].join('');
  // Between them the critical CSS, inlined: the first paint waits for no stylesheet.
  return [own, style, rest];
}

/** A void element from its attributes, in their order (src/client/head.ts makes the same ones after a navigation). */
function tag(name: 'link' | 'meta', attributes: HeadTag): string {
  let html = `<${name}`;
  for (const [attribute, value] of Object.entries(attributes)) html += ` ${attribute}="${escapeHtml(value)}"`;
  return `${html}>`;
}

/**
 * Everything after #root: the page's embedded JSON (`payload`, already escaped:
 * routes/page-data.ts#serializePayload), then the page's scripts in an inert <template>,
 * which the head script makes live after the first paint (head-script.ts): the deferred
 * stylesheet, the entry, its static imports preloaded, and the locale's messages
 * (`messagesUrl`), which hydration needs too. Nothing but the head script is fetched before
 * that paint.
 */
export function documentEnd(manifest: Manifest, messagesUrl: string, payload: string): string {
  const attr = escapeHtml;
  const preloads = manifest.preload.map((chunk) => `<link rel="modulepreload" href="${attr(chunk)}">`).join('');
  return (
    `</div><script type="application/json" id="${PAYLOAD_ELEMENT_ID}">${payload}</script>` +
    `<template id="${SCRIPTS_TEMPLATE_ID}"><link rel="stylesheet" href="${attr(manifest.css)}" id="${DEFERRED_CSS_ELEMENT_ID}">${preloads}` +
    // `crossorigin`: the credentials mode of the client's fetch (same-origin), or the browser fetches it twice.
    `<link rel="preload" href="${attr(messagesUrl)}" as="fetch" crossorigin>` +
    `<script type="module" src="${attr(manifest.js)}"></script></template></body></html>`
  );
}
