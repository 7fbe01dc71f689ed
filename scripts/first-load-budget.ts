/**
 * Budget for the JavaScript a page needs before it is interactive (gzip): the entry and its
 * static imports. A phone on a slow network loads it in about a second. What the first
 * screen does not need (client navigation, search, copy buttons, monitoring) is import()ed.
 * `npm run build` fails over it; test/bench/first-load-js.test.ts holds the served pages to it.
 */
export const FIRST_LOAD_JS_BUDGET = 80 * 1024;

/**
 * Budget for the critical stylesheet every page inlines (gzip): it is in every document, and
 * the first paint waits for the whole of the document's head.
 */
export const CRITICAL_CSS_BUDGET = 3 * 1024;
