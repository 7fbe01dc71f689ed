import { session } from './session-storage.ts';

const RELOADED_KEY = 'polysite:reloaded';

/**
 * After a client navigation, a render error is most often a stale bundle: one
 * full load of the same URL usually mends it. This remembers that reload for
 * the session, so a page that fails again shows the error screen instead of
 * reloading forever.
 */
export const reloadGuard = {
  /** The document loaded fine: a later error may reload once again. */
  loaded(): void {
    session.remove(RELOADED_KEY);
  },
  /** Reloads the page once per path; false when it already did (or cannot remember that it did). */
  reloadOnce(): boolean {
    if (session.get(RELOADED_KEY) === location.pathname) return false;
    // Without storage a second failure would look like a first: no reload at all.
    if (!session.set(RELOADED_KEY, location.pathname)) return false;
    location.reload();
    return true;
  },
};
