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

/** A translator's mistake: reported by a chunk loaded when the first one happens (message-failure.ts). */
function reportFailure(failure: MessageFailure): void {
  import('./message-failure.ts').then(({ reportMessageFailure }) => reportMessageFailure(failure, reportError), console.error);
}
