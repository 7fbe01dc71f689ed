/**
 * With scroll restoration in our hands (`manual`), every history entry keeps its
 * own position in history.state. It is written as the visitor scrolls
 * (debounced), when a page is left by a link, and when the document is hidden,
 * so back, forward and reload all find it, across client navigations and full
 * loads alike.
 */
type ScrollState = { scroll?: [number, number] | null } | null;

const SAVE_DELAY_MS = 150;

export function createScrollMemory() {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    history.replaceState({ ...history.state, scroll: [scrollX, scrollY] }, '');
  };
  const onScroll = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  return {
    /** Now, for the entry being left. */
    save,
    /** The position saved for the current entry, if any. */
    saved: (): [number, number] | null => (history.state as ScrollState)?.scroll ?? null,
    /** A position still waiting to be saved belongs to the entry just left: drop it (on popstate). */
    forgetPending: () => clearTimeout(timer),
    start() {
      history.scrollRestoration = 'manual';
      window.addEventListener('scroll', onScroll, { passive: true });
      window.addEventListener('pagehide', save);
      // A reload, or back/forward to a document that was loaded in full: where it was left.
      const saved = (history.state as ScrollState)?.scroll;
      const arrivedBy = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
      if (saved && (arrivedBy === 'reload' || arrivedBy === 'back_forward')) scrollTo(saved[0], saved[1]);
    },
    stop() {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
    },
  };
}
