import { pageDataKey } from '../routes/page-data.ts';
import { anchorOf, pagePathOf } from './links.ts';

/** Hover intent before a prefetch: passing over a link on the way elsewhere costs nothing. */
const PREFETCH_DELAY_MS = 65;

/**
 * Fetches a page's data before the click: on hover (after a short intent
 * delay), keyboard focus, or at once on touch.
 */
export function createPrefetcher(prefetch: (path: string) => void, locales: () => ReadonlySet<string>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onIntent = (event: Event) => {
    const anchor = anchorOf(event);
    const path = anchor && pagePathOf(anchor, locales());
    if (!path || path === pageDataKey(location)) return;
    clearTimeout(timer);
    if (event.type === 'touchstart') return prefetch(path);
    timer = setTimeout(() => prefetch(path), PREFETCH_DELAY_MS);
  };
  const onLeave = () => clearTimeout(timer);
  return {
    start() {
      document.addEventListener('pointerover', onIntent);
      document.addEventListener('focusin', onIntent);
      document.addEventListener('touchstart', onIntent, { passive: true });
      document.addEventListener('pointerout', onLeave);
    },
    stop() {
      clearTimeout(timer);
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
      document.removeEventListener('touchstart', onIntent);
      document.removeEventListener('pointerout', onLeave);
    },
  };
}
