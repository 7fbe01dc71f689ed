import type { MessageIntl } from '../i18n/intl.ts';
import type { PageData } from '../routes/types.ts';

/** What React renders, read through useSyncExternalStore. */
export type NavState = {
  page: PageData;
  intl: MessageIntl;
  /** Set after a client navigation, until the screen has been committed. */
  arrival: { scroll: [number, number] | null; hash: string } | null;
};

/**
 * The page on screen, as a store React subscribes to. Made by the entry for hydration;
 * the navigator (a chunk loaded after hydration) writes it from then on.
 */
export function createPageState(initial: NavState) {
  const listeners = new Set<() => void>();
  let state = initial;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    set(next: NavState) {
      state = next;
      for (const listener of listeners) listener();
    },
  };
}

export type PageState = ReturnType<typeof createPageState>;
