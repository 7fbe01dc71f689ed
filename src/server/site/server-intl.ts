import { type CompiledMessages, makeIntl, type Translator } from '../../i18n/intl.ts';

/**
 * The server's Translator for a locale: the browser's (i18n/intl.ts, the same engine,
 * so hydration sees the same text) with the locale's labels kept. A message without
 * values reads the same at every render and is formatted once; @formatjs/intl, used
 * here before, looked each message's formatter up at every call in a memo keyed by
 * its serialised AST, 5 % of an uncached render. A message that fails to format
 * (a value it needs is missing) shows its key instead of failing the render.
 */
export function makeServerIntl(locale: string, messages: CompiledMessages): Translator {
  const intl = makeIntl(locale, messages);
  const format = (id: string, values: Parameters<Translator['formatMessage']>[1]): string => {
    try {
      return intl.formatMessage({ id }, values);
    } catch {
      return id;
    }
  };
  const labels = new Map<string, string>();
  return {
    locale,
    formatMessage: ({ id }, values) => {
      if (values) return format(id, values);
      let label = labels.get(id);
      if (label === undefined) {
        label = format(id, undefined);
        labels.set(id, label);
      }
      return label;
    },
  };
}
