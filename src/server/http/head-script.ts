import { createHash } from 'node:crypto';

/**
 * Where the switch keeps the reader's choice: the same key as THEME_STORAGE_KEY in
 * src/routes/theme-switch.tsx (the edge imports nothing of the routes; the theme switch's
 * browser test fails if the two differ, as a stored choice would then not apply).
 */
const THEME_STORAGE_KEY = 'polysite-theme';

/**
 * The id of the inert <template> that ends every document with the page's scripts, their
 * preloads and its messages' preload (pages/document-shell.ts#documentEnd).
 */
export const SCRIPTS_TEMPLATE_ID = 'polysite-scripts';

/** The reader's stored theme on <html>, before the stylesheet applies: the first paint is already in their theme (no flash). */
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
 * The one inline script of a page, in its head: the theme, then the loader of the page's
 * scripts. Inline because a blocking external script would cost every first visit a
 * request before anything is painted; allowed by the CSP through its hash alone
 * (HEAD_SCRIPT_HASH, security-headers.ts), so no other inline script runs.
 */
export const HEAD_SCRIPT = THEME + LOAD_SCRIPTS;

/** The CSP source that allows HEAD_SCRIPT and nothing else. */
export const HEAD_SCRIPT_HASH = `'sha256-${createHash('sha256').update(HEAD_SCRIPT).digest('base64')}'`;
