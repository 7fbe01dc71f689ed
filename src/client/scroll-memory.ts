/**
 * With scroll restoration in our hands (`manual`), every history entry keeps its
 * own position in history.state. It is written as the visitor scrolls
 * (debounced), when a page is left by a link, and when the document is hidden,
 * so back, forward and reload all find it, across client navigations and full
 * loads alike.
 *
 * The browser lays out only the blocks of the text near the screen (`content-visibility`
 * on `.prose > *`, styles.css), with an estimate for the others. A position is pixels, so
 * whatever is above it must have its real size when it is taken and when it is restored:
 * every place reached otherwise than by scrolling through the text (a jump of more than a
 * screen, the End key, a restored position, a #fragment) lays the whole text out first
 * (WHOLE_TEXT_ATTRIBUTE). Scrolling through lays out each block as it passes, and the
 * browser keeps its size.
 */
type ScrollState = { scroll?: [number, number] | null } | null;

/**
 * Set on <html> once the screen is at a place reached by a jump: styles.css lays every
 * block of the text out then, with no estimated sizes, so the place is where its pixels
 * say. A page arrived at by a link starts without it; one loaded with a #fragment starts
 * with it, and a click on a same-page #link (the browser's own scroll) sets it, both from
 * the head script (WHOLE_TEXT_ATTRIBUTE in server/pages/head-script.ts).
 */
const WHOLE_TEXT_ATTRIBUTE = 'data-whole-text';

const SAVE_DELAY_MS = 150;

const wholeText = () => document.documentElement.setAttribute(WHOLE_TEXT_ATTRIBUTE, '');

/** Where the last scroll event, or the code's own scroll, left the screen: a jump is measured from there. */
let lastY = 0;

/** Scrolls, as the code's own move: no jump of the reader's. */
function go(move: () => void): void {
  move();
  lastY = scrollY;
}

/** Goes to a saved position, with the whole text at its real size. */
export function restorePosition([x, y]: [number, number]): void {
  wholeText();
  go(() => scrollTo(x, y));
}

/** Goes to a #fragment's element, with every block above it at its real size. */
export function scrollToTarget(target: Element): void {
  wholeText();
  go(() => target.scrollIntoView());
}

/** Goes to the top of a page arrived at by a link: its text is laid out as it comes near again. */
export function scrollToTop(): void {
  document.documentElement.removeAttribute(WHOLE_TEXT_ATTRIBUTE);
  go(() => scrollTo(0, 0));
}

export function createScrollMemory() {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    history.replaceState({ ...history.state, scroll: [scrollX, scrollY] }, '');
  };
  const onScroll = () => {
    // More than a screen in one step (the scroll bar dragged, a key that jumps) passed over
    // blocks never laid out: their estimates would make this position's pixels wrong.
    if (Math.abs(scrollY - lastY) > innerHeight) wholeText();
    lastY = scrollY;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  // The end of the page, where the whole text has its real size: before the browser goes there.
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'End') wholeText();
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
      lastY = scrollY;
      window.addEventListener('scroll', onScroll, { passive: true });
      window.addEventListener('keydown', onKey);
      window.addEventListener('pagehide', save);
      // A reload, or back/forward to a document that was loaded in full: where it was left.
      const saved = (history.state as ScrollState)?.scroll;
      const arrivedBy = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
      if (saved && (arrivedBy === 'reload' || arrivedBy === 'back_forward')) restorePosition(saved);
    },
    stop() {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pagehide', save);
    },
  };
}
