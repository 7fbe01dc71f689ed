import { causeOf } from '../i18n/failure-cause.ts';
import type { MessageFailure } from '../i18n/intl.ts';

/**
 * A translator's mistake, reported: the page already shows the default locale's message
 * (client-intl.ts), and the site's owner hears of it once. A chunk of its own, loaded when
 * a message first fails, so no page's first load carries it; it imports nothing the first
 * load has (`report` is passed in), so it splits no shared chunk off the entry.
 */
export function reportMessageFailure({ locale, id, error }: MessageFailure, report: (error: unknown) => void): void {
  console.warn(
    `message "${id}" of locale "${locale}" did not format (${causeOf(error)}); the default locale's message (or the key) is shown`,
  );
  report(error);
}
