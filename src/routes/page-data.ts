import type { Payload, ScreenData } from './types.ts';

// The server <-> browser wire contract, both directions side by side:
// where page data lives (its URL), how it is embedded in a document, and how
// the browser reads it back.

/** Element id of the embedded `<script type="application/json">`. */
export const PAYLOAD_ELEMENT_ID = 'polysite-data';

/** The element the browser hydrates. */
export const ROOT_ELEMENT_ID = 'root';

/** Navigation progress bar and the aria-live region, outside the React root. */
export const PROGRESS_ELEMENT_ID = 'polysite-progress';
export const ANNOUNCER_ELEMENT_ID = 'polysite-announcer';

/** Attribute on the element that holds a screen's rendered Markdown. */
export const CONTENT_ATTRIBUTE = 'data-content';

const DATA_PREFIX = '/_data/';
const DATA_SUFFIX = '.json';

/**
 * Page data has a URL of its own (never the HTML URL with another header, so no
 * cache can mix the two), with the build id in it: a client running an old
 * bundle asks for an old build's URL, and the server can tell it to reload.
 */
export function dataUrl(build: string, pagePath: string): string {
  return DATA_PREFIX + build + pagePath + DATA_SUFFIX;
}

/** The inverse of `dataUrl`: null when the path is not a data URL at all. */
export function parseDataUrl(rawPath: string): { build: string; pagePath: string } | null {
  if (!rawPath.startsWith(DATA_PREFIX) || !rawPath.endsWith(DATA_SUFFIX)) return null;
  const inner = rawPath.slice(DATA_PREFIX.length, -DATA_SUFFIX.length);
  const slash = inner.indexOf('/');
  if (slash <= 0) return null;
  return { build: inner.slice(0, slash), pagePath: inner.slice(slash) };
}

// JSON inside <script> ends at the first `</script`, and `<!--` switches the HTML
// parser into an escaped state; U+2028/2029 broke JS string literals before ES2019.
// Escaping `<`, `>`, `&` and both separators as \u sequences is inert in JSON.
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function escapeJsonForHtml(json: string): string {
  return json.replace(UNSAFE, (char) => ESCAPES[char]!);
}

/**
 * The embedded payload leaves out the screen's `html`: it is already in the
 * document, and the browser reads it back from the DOM (see readPayload), so a
 * page never carries its content twice.
 */
export function serializePayload(payload: Payload, shared: string = serializeShared(payload)): string {
  const { screen } = payload.page;
  const page = 'html' in screen ? { ...payload.page, screen: { ...screen, html: '' } } : payload.page;
  const opening = escapeJsonForHtml(JSON.stringify({ page }).slice(0, -1)); // `{"page":{...}`
  return shared === '}' ? `${opening}}` : `${opening},${shared}`;
}

/**
 * The part of the payload every page of a locale embeds alike (its messages and
 * the monitoring settings), serialized and escaped once: `"messages":{...}}`.
 * Pass it to serializePayload to skip the largest part of the work per page.
 */
export function serializeShared({ messages, monitoring }: Omit<Payload, 'page'>): string {
  return escapeJsonForHtml(JSON.stringify({ messages, monitoring }).slice(1));
}

/** Browser side: the payload of the current document, with the content restored. */
export function readPayload(doc: Document): Payload {
  const element = doc.getElementById(PAYLOAD_ELEMENT_ID);
  if (!element?.textContent) throw new Error(`No #${PAYLOAD_ELEMENT_ID} element: was this page rendered by polysite?`);
  const payload = JSON.parse(element.textContent) as Payload;
  const screen: ScreenData = payload.page.screen;
  if ('html' in screen) screen.html = doc.querySelector(`[${CONTENT_ATTRIBUTE}]`)?.innerHTML ?? '';
  return payload;
}
