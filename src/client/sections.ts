import { session } from './session-storage.ts';

/**
 * The docs sidebar's sections (each a <details>, routes/screens/docs.tsx) as the reader
 * folded them, kept for the visit: each section they fold or unfold is remembered by its
 * page's path in sessionStorage and shown so on every page after, until the tab closes.
 * Loaded (a chunk of its own) after a render that shows a section (main.tsx).
 */
const KEY = 'polysite.sections';
const watched = new WeakSet<HTMLDetailsElement>();

/** Applies the remembered folding to the sections under `root` and remembers what the reader does; safe to call again. */
export function keepFolding(root: ParentNode): void {
  const folded = read();
  for (const section of root.querySelectorAll<HTMLDetailsElement>('details[data-docs-section]')) {
    const path = section.dataset.docsSection!;
    if (Object.hasOwn(folded, path)) section.open = folded[path]!;
    if (watched.has(section)) continue;
    watched.add(section);
    // Says the reader's folding is now kept (for tests, as `data-hydrated` says the page is React's).
    section.dataset.kept = '';
    section.addEventListener('toggle', () => {
      const now = read();
      now[path] = section.open;
      session.set(KEY, JSON.stringify(now));
    });
  }
}

/** Open (true) or folded (false), by section path; nothing when storage is refused or holds something else. */
function read(): Record<string, boolean> {
  try {
    const value: unknown = JSON.parse(session.get(KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}
