import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import {
  createIntl,
  createIntlCache,
  formatMessage,
  type IntlCache,
  type IntlShape,
  type MessageDescriptor,
  type OnErrorFn,
} from '@formatjs/intl';
import { type Formats, type Formatters as MessageFormatters, IntlMessageFormat } from 'intl-messageformat';

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
  const onError = reportOnce(bundle.locale, report);
  const intl = createIntl({ locale: bundle.locale, defaultLocale: bundle.defaultLocale, messages: bundle.messages, onError }, cache);
  return { ...intl, ...messageFormatting(bundle, intl, intl.formatters) };
}

/**
 * The browser's IntlShape: the library's config and formatMessage over Intl objects kept in
 * `cache`, without the formatters for dates, lists and names that only the server calls
 * (createIntl binds them all, and createFormatters memoises each: the first load would pay
 * for both).
 */
export function makeMessageIntl(bundle: LocaleMessages, cache: IntlCache, report: Report): MessageIntl {
  const { locale, defaultLocale, messages } = bundle;
  // What formatMessage reads of a config. Not DEFAULT_INTL_CONFIG spread in: the rest of it is
  // its console handlers and options left unset here, and it would be bytes of the first load.
  const config = { locale, defaultLocale, messages, formats: {}, defaultFormats: {}, onError: reportOnce(locale, report) };
  return { locale, defaultLocale, ...messageFormatting(bundle, config as Parameters<typeof formatMessage>[0], messageFormatters(cache)) };
}

/**
 * The three formatters IntlMessageFormat calls, each Intl object made once per locale and
 * options (as @formatjs/intl's createFormatters keeps them, in the same cache): at most one
 * per distinct format the catalog's messages use. A message's own IntlMessageFormat is
 * messageFormatting's.
 */
function messageFormatters(cache: IntlCache): MessageFormatters {
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
 * formatMessage for a locale: @formatjs/intl's, on the server and in the browser (the same
 * text on both, or hydration would differ). A message that fails to format (a translator
 * renamed a placeholder, a value is missing) shows the default locale's message, and
 * failing that its key; `onError` hears of it, and the page goes on rendering.
 *
 * Each message's IntlMessageFormat is made on its first use, once: @formatjs/intl's own
 * `getMessageFormat` memo finds it by a key serialised from the message's AST at every
 * call, which cost 5 % of an uncached render. Ours finds it by the AST itself (the
 * same array the catalog holds). Made on first use, not all up front: the browser
 * prepares only the messages the page shows before it hydrates. Per-call message
 * options are not supported.
 */
function messageFormatting(
  bundle: LocaleMessages,
  config: Parameters<typeof formatMessage>[0],
  library: MessageFormatters,
): Pick<MessageIntl, 'formatMessage' | '$t'> {
  const { locale, messages, defaultLocale } = bundle;
  const defaults = locale === defaultLocale ? messages : bundle.defaults;
  const own = lazyFormatters(messages, locale, withSmallIntegers(library, bundle.digits));
  const fallback = defaults === messages ? own : lazyFormatters(defaults, defaultLocale, library);
  // formatMessage asks its state for nothing but each message's IntlMessageFormat.
  const state = {
    getMessageFormat: (message: MessageFormatElement[], locales: string, formats?: Formats) =>
      (locales === locale ? own : fallback)(message) ?? new IntlMessageFormat(message, locales, formats, { formatters: library }),
  } as unknown as Parameters<typeof formatMessage>[1];
  // The library falls back to a descriptor's `defaultMessage`: each key's is the default locale's, made once.
  const descriptors = new Map(Object.keys(messages).map((id) => [id, { id, defaultMessage: defaults[id] }]));
  const format = ((descriptor: MessageDescriptor, values?: Record<string, string | number>) =>
    formatMessage(config, state, descriptors.get(String(descriptor.id)) ?? descriptor, values)) as SiteIntl['formatMessage'];
  return { formatMessage: format, $t: format };
}

/**
 * The IntlMessageFormat of each of a catalog's messages, made on first use and kept (at
 * most one per message of the catalog); undefined for a message that is not the catalog's.
 */
function lazyFormatters(catalog: CompiledMessages, locale: string, library: MessageFormatters) {
  const catalogued = new Set(Object.values(catalog));
  const made = new Map<MessageFormatElement[], IntlMessageFormat>();
  return (message: MessageFormatElement[]): IntlMessageFormat | undefined => {
    let formatter = made.get(message);
    if (!formatter && catalogued.has(message)) {
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
function withSmallIntegers(library: MessageFormatters, digits: readonly string[] | undefined): MessageFormatters {
  if (!digits) return library;
  const getNumberFormat: MessageFormatters['getNumberFormat'] = (locales, options) =>
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
  // Checked once per locale: start-up asks for each locale's twice (its IntlShape and its page store's bundle),
  // a thousand numbers formatted each time. At most one entry per locale of the site.
  if (!checkedDigits.has(locale)) checkedDigits.set(locale, checkDigits(locale));
  return checkedDigits.get(locale);
}

const checkedDigits = new Map<string, string[] | undefined>();

function checkDigits(locale: string): string[] | undefined {
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
function reportOnce(locale: string, report: Report): OnErrorFn {
  const reported = new Set<string>();
  return (error) => {
    const id = String(('descriptor' in error && error.descriptor?.id) || error.code);
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
