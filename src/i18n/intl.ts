import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * Messages travel pre-parsed (ICU AST), so neither the server per request nor the
 * browser ever runs the ICU parser; the client build aliases the parser away.
 */
export type CompiledMessages = Record<string, MessageFormatElement[]>;

export type MessageValues = Record<string, string | number>;

/** What screens use to format UI strings (see makeIntl). */
export type Translator = {
  readonly locale: string;
  formatMessage(descriptor: { id: string }, values?: MessageValues): string;
};

/**
 * A Translator over intl-messageformat: one formatter per message, made on first use.
 * The browser uses it as it is (the search chunk gets it passed in, see
 * src/client/searchers.ts); the server keeps its labels (src/server/site/server-intl.ts).
 * A message the catalog lacks shows its key: a bug the tests catch.
 */
export function makeIntl(locale: string, messages: CompiledMessages): Translator {
  const formatters = new Map<string, IntlMessageFormat>();
  return {
    locale,
    formatMessage({ id }, values) {
      let formatter = formatters.get(id);
      if (!formatter) {
        const message = messages[id];
        if (!message) return id;
        formatter = new IntlMessageFormat(message, locale);
        formatters.set(id, formatter);
      }
      return String(formatter.format(values));
    },
  };
}
