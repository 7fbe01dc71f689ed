import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { createIntl, formatMessage, type IntlCache, type IntlShape, type MessageDescriptor } from '@formatjs/intl';
import { IntlMessageFormat } from 'intl-messageformat';

export { createIntlCache } from '@formatjs/intl';

/**
 * Messages travel pre-parsed (ICU AST), so neither the server per request nor the
 * browser ever runs the ICU parser; the client build aliases the parser away.
 */
export type CompiledMessages = Record<string, MessageFormatElement[]>;

export type MessageValues = Record<string, string | number>;

/**
 * A locale's messages as the browser receives them (one content-hashed asset) and as
 * the server formats them: the locale's own, and the default locale's for each of
 * them that can fail to format (see fallbacksFor). The default locale has no `defaults`:
 * its own messages are the last resort before the key.
 */
export type LocaleMessages = { locale: string; messages: CompiledMessages; defaultLocale: string; defaults: CompiledMessages };

/** What screens format with: @formatjs/intl's, one per locale. */
export type SiteIntl = IntlShape<string>;

/** A message that did not format (or another formatter's error), reported once per locale and key. */
export type MessageFailure = { locale: string; id: string; error: Error; cause: string };

/** Distinct failures an IntlShape reports at most: past this many, it is one failure repeating. */
const MAX_REPORTED = 200;

/**
 * The locale's IntlShape. A message that fails to format (a translator renamed a
 * placeholder, a value is missing) shows the default locale's message, and failing
 * that its key; `report` hears of it once per key, and the page goes on rendering.
 *
 * Each message's IntlMessageFormat is made here, once: @formatjs/intl's own
 * `getMessageFormat` memo finds it by a key serialised from the message's AST at every
 * call, which cost 5 % of an uncached render. Ours finds it by the AST itself (the
 * same array the catalog holds). Per-call message options are not supported.
 */
export function makeIntl(bundle: LocaleMessages, cache: IntlCache, report: (failure: MessageFailure) => void): SiteIntl {
  const { locale, messages, defaultLocale } = bundle;
  const defaults = locale === defaultLocale ? messages : bundle.defaults;
  const reported = new Set<string>();
  const intl = createIntl(
    {
      locale,
      defaultLocale,
      messages,
      onError(error) {
        const id = String(('descriptor' in error && error.descriptor?.id) || error.code);
        if (reported.has(id) || reported.size >= MAX_REPORTED) return;
        reported.add(id);
        report({ locale, id, error, cause: causeOf(error) });
      },
    },
    cache,
  );
  const library = intl.formatters;
  const builtFor = (catalog: CompiledMessages, inLocale: string) =>
    new Map(
      Object.values(catalog)
        .filter((message) => !isPlainText(message))
        .map((message) => [message, new IntlMessageFormat(message, inLocale, undefined, { formatters: library })]),
    );
  const own = builtFor(messages, locale);
  const fallback = defaults === messages ? own : builtFor(defaults, defaultLocale);
  const formatters: SiteIntl['formatters'] = {
    ...library,
    getMessageFormat: (message, locales, formats, options) =>
      (locales === locale ? own : fallback).get(message as MessageFormatElement[]) ??
      library.getMessageFormat(message, locales, formats, options),
  };
  // The library falls back to a descriptor's `defaultMessage`: each key's is the default locale's, made once.
  const descriptors = new Map(Object.keys(messages).map((id) => [id, { id, defaultMessage: defaults[id] }]));
  const format = ((descriptor: MessageDescriptor, values?: Record<string, string | number>) =>
    formatMessage(intl, formatters, descriptors.get(String(descriptor.id)) ?? descriptor, values)) as SiteIntl['formatMessage'];
  return { ...intl, formatters, formatMessage: format, $t: format };
}

/**
 * The default locale's messages that `locale`'s may need: one for each message that is
 * more than plain text (plain text always formats). Few, so the browser gets them with
 * the locale's messages, in the same asset.
 */
export function localeMessages(locale: string, catalog: ReadonlyMap<string, CompiledMessages>, defaultLocale: string): LocaleMessages {
  const messages = catalog.get(locale) ?? {};
  const defaults: CompiledMessages = {};
  if (locale !== defaultLocale) {
    const source = catalog.get(defaultLocale) ?? {};
    for (const [id, message] of Object.entries(messages)) if (!isPlainText(message) && source[id]) defaults[id] = source[id];
  }
  return { locale, messages, defaultLocale, defaults };
}

/** A language's name in the IntlShape's locale (`de` in French: "allemand"); the code when the runtime has none. */
export function languageName(intl: SiteIntl, code: string): string {
  return intl.formatDisplayName(code, { type: 'language' }) ?? code;
}

/**
 * What went wrong, in one line: @formatjs/intl writes the formatter's own error (`The intl
 * string context variable "titulo" was not provided...`) after the message's context.
 */
function causeOf(error: Error): string {
  const [first = '', ...rest] = error.message.split('\n');
  const afterLocale = rest.findIndex((line) => line.startsWith('Locale: '));
  return (afterLocale >= 0 && rest.slice(afterLocale + 1).find((line) => line.trim())) || first;
}

/** What @formatjs/intl returns as it is, with no formatter: one literal. */
function isPlainText(message: MessageFormatElement[]): boolean {
  return message.length === 1 && message[0]!.type === TYPE.literal;
}
