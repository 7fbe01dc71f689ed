import { PROGRESS_ELEMENT_ID } from '../routes/page-data.ts';

/** Progress shows only for navigations slower than this: a flash for a fast one is noise. */
const PROGRESS_DELAY_MS = 150;

/**
 * Shows the progress bar if the navigation is still loading after a moment.
 * Call the returned function when its load settles: with `latest`, no newer
 * navigation took over, so the bar is hidden (a newer one hides it itself).
 */
export function showProgressSoon(): (latest: boolean) => void {
  const timer = setTimeout(() => toggle(true), PROGRESS_DELAY_MS);
  return (latest) => {
    clearTimeout(timer);
    if (latest) toggle(false);
  };
}

function toggle(on: boolean) {
  const bar = document.getElementById(PROGRESS_ELEMENT_ID);
  if (bar) bar.hidden = !on;
}
