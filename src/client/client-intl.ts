import { createIntlCache, type LocaleMessages, type MessageFailure, makeMessageIntl, type MessageIntl } from '../i18n/intl.ts';
import { reportError } from './reporting.ts';

// The browser's IntlShapes: one per locale, made when its messages first arrive,
// sharing one cache of Intl objects. The search chunk gets `intlFor` passed in.

const cache = createIntlCache();
const intls = new Map<string, MessageIntl>();

export function intlFor(messages: LocaleMessages): MessageIntl {
  let intl = intls.get(messages.locale);
  if (!intl) {
    intl = makeMessageIntl(messages, cache, reportFailure);
    intls.set(messages.locale, intl);
  }
  return intl;
}

/** A translator's mistake: the page shows the default locale's message, and the site's owner hears of it once. */
function reportFailure({ locale, id, error, cause }: MessageFailure): void {
  console.warn(`message "${id}" of locale "${locale}" did not format (${cause}); the default locale's message (or the key) is shown`);
  reportError(error);
}
