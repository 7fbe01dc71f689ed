import { createHash } from 'node:crypto';

/**
 * Where the switch keeps the reader's choice: the same key as THEME_STORAGE_KEY in
 * src/routes/theme-switch.tsx (the edge imports nothing of the routes; the theme switch's
 * browser test fails if the two differ, as a stored choice would then not apply).
 */
const THEME_STORAGE_KEY = 'polysite-theme';

/**
 * The one inline script of a page: the reader's stored theme set on <html> before the
 * stylesheet applies, so the first paint is already in their theme (no flash). Inline
 * because a blocking external script would cost every first visit a request before
 * anything is painted; allowed by the CSP through its hash alone (THEME_SCRIPT_HASH,
 * security-headers.ts), so no other inline script runs.
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** The CSP source that allows THEME_SCRIPT and nothing else. */
export const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
