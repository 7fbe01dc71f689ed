import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * Messages travel pre-parsed (ICU AST), so neither the server per request nor the
 * browser ever runs the ICU parser; the client build aliases the parser away.
 */
export type CompiledMessages = Record<string, MessageFormatElement[]>;

/** Message keys, checked against the default locale's file by the tests. */
export type MessageKey = string;

// One cache for the whole process (or tab): formatters are memoised across locales.
const cache = createIntlCache();

export function makeIntl(locale: string, messages: CompiledMessages): IntlShape<string> {
  return createIntl(
    {
      locale,
      messages,
      // A missing message is a bug the tests catch; at run time show the key, quietly.
      onError: () => {},
    },
    cache,
  );
}

export type { IntlShape };
