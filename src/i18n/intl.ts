import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { createIntlCache, createIntl, type IntlCache, type IntlShape, type OnErrorFn } from '@formatjs/intl';
import { type Formatters, IntlMessageFormat } from 'intl-messageformat';

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
export type LocaleMessages = {
  locale: string;
  messages: CompiledMessages;
  defaultLocale: string;
  defaults: CompiledMessages;
  /** The locale's ten digits as the server's Intl writes them (see localeDigits); absent where that is not how it writes small numbers. */
  digits?: string[];
};

/** The server's formatter: @formatjs/intl's IntlShape, one per locale (messages, dates, lists, language names). */
export type SiteIntl = IntlShape<string>;

/**
 * What screens format with, on the server and in the browser: the message half of an
 * IntlShape. Dates, lists and language names are formatted on the server, into the page
 * data; the browser's IntlShape is this half alone (see makeMessageIntl).
 */
export type MessageIntl = Pick<SiteIntl, 'locale' | 'defaultLocale' | 'formatMessage' | '$t'>;

/** A message that did not format (or another formatter's error), reported once per locale and key. */
export type MessageFailure = { locale: string; id: string; error: Error };

type Report = (failure: MessageFailure) => void;

/**
 * IntlMessageFormat resolves its locale in every constructor with Intl.NumberFormat's
 * supportedLocalesOf, and a browser's first touch of Intl.NumberFormat loads its locale
 * data: the longest part of preparing a page's messages, even when none of them formats
 * a number. For one locale the answer is that locale's Intl.Locale either way
 * (supportedLocalesOf returns it canonicalised, or nothing, and then the library makes
 * the same Intl.Locale), so it is made directly; NumberFormat is then first touched by a
 * message that formats a number.
 */
const resolveLocale = IntlMessageFormat.resolveLocale;
IntlMessageFormat.resolveLocale = (locales) => (typeof locales === 'string' ? new Intl.Locale(locales) : resolveLocale(locales));

/** Distinct failures an IntlShape reports at most: past this many, it is one failure repeating. */
const MAX_REPORTED = 200;

/**
 * The locale's IntlShape (createIntl), with the message formatting of makeMessageIntl.
 * A formatter's failure is reported once per key, as a message's is.
 */
export function makeIntl(bundle: LocaleMessages, cache: IntlCache, report: Report): SiteIntl {
  const failed = reportOnce(bundle.locale, report);
  const onError: OnErrorFn = (error) => failed(String(('descriptor' in error && error.descriptor?.id) || error.code), error);
  const intl = createIntl({ locale: bundle.locale, defaultLocale: bundle.defaultLocale, messages: bundle.messages, onError }, cache);
  return { ...intl, ...messageFormatting(bundle, intl.formatters, failed) };
}

/**
 * The browser's IntlShape: formatMessage alone, over Intl objects kept in `cache`. The same
 * formatMessage as the server's (makeIntl), without @formatjs/intl, whose formatters for
 * dates, lists and names only the server calls (it would cost the first load 2 KB gzip).
 */
export function makeMessageIntl(bundle: LocaleMessages, cache: IntlCache, report: Report): MessageIntl {
  const { locale, defaultLocale } = bundle;
  return { locale, defaultLocale, ...messageFormatting(bundle, messageFormatters(cache), reportOnce(locale, report)) };
}

/**
 * The three formatters IntlMessageFormat calls, each Intl object made once per locale and
 * options (as @formatjs/intl's createFormatters keeps them, in the same cache): at most one
 * per distinct format the catalog's messages use.
 */
function messageFormatters(cache: IntlCache): Formatters {
  const kept =
    <T>(store: Record<string, T>, make: (...args: never[]) => T) =>
    (...args: unknown[]): T => {
      const key = JSON.stringify(args);
      let made = store[key];
      if (made === undefined) store[key] = made = make(...(args as never[]));
      return made;
    };
  return {
    getNumberFormat: kept(
      cache.number,
      (locales?: string | string[], options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locales, options),
    ),
    getDateTimeFormat: kept(
      cache.dateTime,
      (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
    ),
    getPluralRules: kept(cache.pluralRules, (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args)),
  };
}

/**
 * formatMessage for a locale: the server's and the browser's (the same text on both, or
 * hydration would differ). A message that fails to format (a translator renamed a
 * placeholder, a value is missing) shows the default locale's message, and failing that
 * its key; `failed` hears of it, and the page goes on rendering.
 *
 * Each message's IntlMessageFormat is made on its first use, once, found by the message's
 * AST itself (the same array the catalog holds): @formatjs/intl's own memo serialised the
 * AST at every call, which cost 5 % of an uncached render. Made on first use, not all up
 * front: the browser prepares only the messages the page shows before it hydrates.
 * Descriptors' default messages and per-call options are not supported: a key's default
 * is the default locale's message.
 */
function messageFormatting(
  bundle: LocaleMessages,
  library: Formatters,
  failed: (id: string, error: Error) => void,
): Pick<MessageIntl, 'formatMessage' | '$t'> {
  const { locale, messages, defaultLocale } = bundle;
  const defaults = locale === defaultLocale ? null : bundle.defaults;
  const own = lazyFormatters(locale, withSmallIntegers(library, bundle.digits));
  const fallback = lazyFormatters(defaultLocale, library);
  const format = ((descriptor: { id?: string | number }, values?: Record<string, string | number>) => {
    const id = String(descriptor.id);
    const message = Object.hasOwn(messages, id) ? messages[id] : undefined;
    if (!message) {
      failed(id, new Error(`no message "${id}"`));
      return id;
    }
    if (isPlainText(message)) return (message[0] as { value: string }).value;
    try {
      return own(message).format(values);
    } catch (error) {
      failed(id, failure(id, locale, error));
    }
    const original = defaults?.[id];
    if (original) {
      try {
        return fallback(original).format(values);
      } catch (error) {
        failed(id, failure(id, defaultLocale, error));
      }
    }
    return id;
  }) as SiteIntl['formatMessage'];
  return { formatMessage: format, $t: format };
}

/** A message's failure, written as @formatjs/intl wrote it (failure-cause.ts reads the cause after the locale). */
function failure(id: string, locale: string, error: unknown): Error {
  return new Error(`Error formatting message: "${id}"\nLocale: ${locale}\n\n${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}

/** The IntlMessageFormat of each message, made on its first use and kept (at most one per message of the catalogs). */
function lazyFormatters(locale: string, library: Formatters) {
  const made = new Map<MessageFormatElement[], IntlMessageFormat>();
  return (message: MessageFormatElement[]): IntlMessageFormat => {
    let formatter = made.get(message);
    if (!formatter) {
      formatter = new IntlMessageFormat(message, locale, undefined, { formatters: library });
      made.set(message, formatter);
    }
    return formatter;
  };
}

/**
 * A page's messages format small counts (`# languages` in every footer), and a browser's
 * first Intl.NumberFormat loads the ICU number data: tens of milliseconds of the main
 * thread while hydrating, for a number that is only digits. So a whole number from 0 to
 * 999 with no options is spelled with the locale's digits, which the server found with
 * its own Intl (localeDigits) and sent with the messages; server and browser then write
 * the same text, and anything else is the library's NumberFormat, made when first needed.
 */
function withSmallIntegers(library: Formatters, digits: readonly string[] | undefined): Formatters {
  if (!digits) return library;
  const getNumberFormat: Formatters['getNumberFormat'] = (locales, options) =>
    options
      ? library.getNumberFormat(locales, options)
      : // Only `format` is called by IntlMessageFormat; the library's NumberFormat is its own memo's.
        ({
          format: (value) => (isSmallCount(value) ? spell(value, digits) : library.getNumberFormat(locales).format(value)),
        } as Intl.NumberFormat);
  return { ...library, getNumberFormat };
}

/** 0 to 999, whole; not -0 (which Intl writes with its sign): `1 / value` is -Infinity for -0. */
function isSmallCount(value: unknown): value is number {
  return Number.isInteger(value) && 1 / (value as number) > 0 && (value as number) < 1000;
}

function spell(value: number, digits: readonly string[]): string {
  return [...String(value)].map((digit) => digits[Number(digit)]).join('');
}

/**
 * The ten digits `locale`'s Intl.NumberFormat writes, if it writes every whole number
 * from 0 to 999 as those digits alone (checked on each: no separator, sign or mark);
 * otherwise undefined, and every number is the library's.
 */
export function localeDigits(locale: string): string[] | undefined {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(locale);
  } catch {
    return undefined;
  }
  const digits = Array.from({ length: 10 }, (_, digit) => format.format(digit));
  if (digits.some((digit) => [...digit].length !== 1)) return undefined;
  for (let value = 10; value < 1000; value++) if (format.format(value) !== spell(value, digits)) return undefined;
  return digits;
}

/** Reports each key (or error code) once, and at most MAX_REPORTED of them. */
function reportOnce(locale: string, report: Report): (id: string, error: Error) => void {
  const reported = new Set<string>();
  return (id, error) => {
    if (reported.has(id) || reported.size >= MAX_REPORTED) return;
    reported.add(id);
    report({ locale, id, error });
  };
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
  const digits = localeDigits(locale);
  return digits ? { locale, messages, defaultLocale, defaults, digits } : { locale, messages, defaultLocale, defaults };
}

/** Every locale's IntlShape over one shared cache of Intl objects; `report` hears each failing message once. */
export function makeIntls(catalog: ReadonlyMap<string, CompiledMessages>, defaultLocale: string, report: Report): Map<string, SiteIntl> {
  const cache = createIntlCache();
  return new Map([...catalog.keys()].map((locale) => [locale, makeIntl(localeMessages(locale, catalog, defaultLocale), cache, report)]));
}

/** A language's name in the IntlShape's locale (`de` in French: "allemand"); the code when the runtime has none. */
export function languageName(intl: SiteIntl, code: string): string {
  return intl.formatDisplayName(code, { type: 'language' }) ?? code;
}

/** What @formatjs/intl returns as it is, with no formatter: one literal. */
function isPlainText(message: MessageFormatElement[]): boolean {
  return message.length === 1 && message[0]!.type === TYPE.literal;
}
