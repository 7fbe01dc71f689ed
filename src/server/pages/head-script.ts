import { StoredBody } from '../http/stored-body.ts';
import { hashedAssetUrl } from '../site/hashed-asset.ts';

/**
 * Where the switch keeps the reader's choice: the same key as THEME_STORAGE_KEY in
 * src/routes/theme-switch.tsx (the server imports nothing of the screens here; the theme
 * switch's browser test fails if the two differ, as a stored choice would then not apply).
 */
const THEME_STORAGE_KEY = 'polysite-theme';

/**
 * The id of the inert <template> that ends every document with the page's scripts, their
 * preloads and its messages' preload (document-shell.ts#documentEnd).
 */
export const SCRIPTS_TEMPLATE_ID = 'polysite-scripts';

/**
 * Set on <html> while every block of the text must be laid out at its real size: the same
 * attribute as WHOLE_TEXT_ATTRIBUTE in src/client/scroll-memory.ts, which styles.css reads
 * (the first-load test's #fragment case fails if they differ).
 */
const WHOLE_TEXT_ATTRIBUTE = 'data-whole-text';

/**
 * The jumps the browser makes on its own, not the client: the whole text is laid
 * out first, so they land where the skipped blocks' real sizes put their target.
 * - A URL with a #fragment: the browser scrolls to its element as the page loads, so the
 *   whole text is laid out from the start.
 * - A click on a same-page #link ("On this page", a heading's anchor, a footnote), before
 *   hydration or after it (the client leaves such links to the browser: links.ts): the
 *   attribute is set while the click is dispatched, before the browser's own scroll.
 * Here, not in CSS: a rule on `:root:has(:target)` made every element the parser added
 * re-check the whole document's style.
 */
const WHOLE_TEXT = `var w=function(){document.documentElement.setAttribute(${JSON.stringify(WHOLE_TEXT_ATTRIBUTE)},"")};location.hash&&w();addEventListener("click",function(e){e.target.closest&&e.target.closest('a[href^="#"]')&&w()});`;

/** The reader's stored theme on <html>, before the body is parsed: the first paint is already in their theme (no flash). */
const THEME = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/**
 * The page's scripts, made live once the browser has painted the page's text (its first
 * contentful paint): the server's HTML is the whole page, so nothing the scripts fetch
 * competes with what that paint needs, on a slow link least of all. Hydration follows.
 * Where paint timing is not reported, at `load`; in a tab opened in the background, when
 * it is first shown (its first paint).
 */
const LOAD_SCRIPTS = `addEventListener("DOMContentLoaded",function(){var s=document.getElementById(${JSON.stringify(SCRIPTS_TEMPLATE_ID)}),P=window.PerformanceObserver;if(!s)return;function go(){s.parentNode&&(s.remove(),document.body.append(s.content))}if(!P||(P.supportedEntryTypes||[]).indexOf("paint")<0)return addEventListener("load",go);new P(function(l,o){l.getEntriesByName("first-contentful-paint").length&&(o.disconnect(),setTimeout(go))}).observe({type:"paint",buffered:!0})})`;

/**
 * The head's script: the whole text for a jump, the theme, then the loader of the
 * page's scripts. A classic script of its own, blocking, early in the <head>
 * (document-shell.ts): it runs before anything is painted, and the CSP's `script-src 'self'` allows it with no hash and no inline script.
 * Not a cookie the server reads instead: every document would then vary by cookie, and a
 * static export has no server to read it. Wrapped so that it leaves no global behind.
 */
export const HEAD_SCRIPT = `!function(){${WHOLE_TEXT}${THEME}${LOAD_SCRIPTS}}();\n`;

/**
 * Its content-hashed URL under /assets: cached for a year (immutable), so only a first
 * visit fetches it, and a change of its text is a new name.
 */
export const HEAD_SCRIPT_URL = hashedAssetUrl('head', HEAD_SCRIPT, '.js');

/** The head script as the server serves it and the export writes it. */
export type HeadScriptAsset = { url: string; body: StoredBody };

/** Made once per server (start-up), with its compressed forms made on first demand. */
export function headScriptAsset(): HeadScriptAsset {
  return { url: HEAD_SCRIPT_URL, body: new StoredBody(HEAD_SCRIPT) };
}
