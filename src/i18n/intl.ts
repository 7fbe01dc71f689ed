import { createIntl, createIntlCache } from '@formatjs/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * Messages travel pre-parsed (ICU AST), so neither the server per request nor the
 * browser ever runs the ICU parser; the client build aliases the parser away.
 */
export type CompiledMessages = Record<string, MessageFormatElement[]>;

export type MessageValues = Record<string, string | number>;

/**
 * What screens use to format UI strings. On the server it is @formatjs/intl's
 * IntlShape; in the browser a lighter object over intl-messageformat, the engine
 * IntlShape itself formats with (see src/client/intl.ts), to keep the bundle small.
 */
export type Translator = {
  readonly locale: string;
  formatMessage(descriptor: { id: string }, values?: MessageValues): string;
};

// One cache for the whole process: formatters are memoised across locales.
const cache = createIntlCache();

/** Server side: one IntlShape per locale, made at start-up. */
export function makeIntl(locale: string, messages: CompiledMessages): Translator {
  const intl = createIntl(
    {
      locale,
      messages,
      // A missing message is a bug the tests catch; at run time show the key, quietly.
      onError: () => {},
    },
    cache,
  );
  return { locale, formatMessage: (descriptor, values) => intl.formatMessage(descriptor, values) };
}
