import { useSyncExternalStore } from 'react';
import type { MessageIntl } from '../i18n/intl.ts';

// The reader's colour theme: light, dark, or the system's (the default). Kept in
// localStorage under THEME_STORAGE_KEY and applied as <html data-theme> before the first
// paint by the head's blocking script (src/server/pages/head-script.ts, same key), a file the
// CSP's `script-src 'self'` allows; the stylesheets' colours follow `data-theme`, else prefers-color-scheme.

export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = 'polysite-theme';

const listeners = new Set<() => void>();

function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'auto';
  } catch {
    return 'auto'; // Storage refused (a privacy mode): the system's theme.
  }
}

function chooseTheme(theme: Theme): void {
  try {
    if (theme === 'auto') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not remembered, but applied to this page all the same.
  }
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    const theme = storedTheme();
    if (theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * Three radio buttons in a labelled group: native controls, so the keyboard, screen
 * readers and forced colours work as for any form. The server renders "auto" checked
 * (it cannot know the choice); hydration then shows the stored one.
 */
export function ThemeSwitch({ intl }: { intl: MessageIntl }) {
  const theme = useSyncExternalStore(subscribe, storedTheme, () => 'auto' as const);
  return (
    <fieldset className="theme-switch">
      <legend className="visually-hidden">{intl.formatMessage({ id: 'theme.label' })}</legend>
      {THEMES.map((value) => (
        <label key={value}>
          <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => chooseTheme(value)} />
          <span>{intl.formatMessage({ id: `theme.${value}` })}</span>
        </label>
      ))}
    </fieldset>
  );
}
