import { type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser';
import type { CompiledMessages } from '../../i18n/intl.ts';
import { ContentError } from './errors.ts';
import { compareMessage, syntaxInWords } from './message-check.ts';
import { columnOf, type MessagesFile, readMessagesFile, type WrittenMessage } from './messages-file.ts';

/**
 * Every locale's messages, parsed once (ICU AST). A key a locale lacks falls back
 * to the default locale's message, so that the site still works while a problem
 * is reported.
 */
export type MessageCatalog = ReadonlyMap<string, CompiledMessages>;

/**
 * Reads and checks every locale's `messages.json`: JSON and ICU syntax, and each
 * translation against the default locale's message (same keys; same arguments, of
 * the same kinds; plural options the locale has; tags the default uses). Each
 * problem names the file, the line and column, and the key. Returns the catalog of
 * what parsed, with the problems, and apart from them the keys missing or extra in
 * a locale (`keys`); `loadMessages` throws both.
 */
export function checkMessages(
  localesDir: string,
  locales: readonly string[],
  defaultLocale: string,
): { catalog: MessageCatalog; problems: string[]; keys: string[] } {
  const problems: string[] = [];
  // A key one file has and the other lacks: `npm run translations` lists these its own way.
  const keys: string[] = [];
  const files = new Map(locales.map((locale) => [locale, readMessagesFile(localesDir, locale)]));
  // With the parser's locations, to place problems; the catalog is parsed again without them (they
  // would go to every browser), which for a site's few hundred messages costs a few milliseconds.
  const parsed = new Map<string, Map<string, MessageFormatElement[]>>();
  const compiled = new Map<string, CompiledMessages>();
  for (const [locale, file] of files) {
    problems.push(...file.problems);
    const messages = new Map<string, MessageFormatElement[]>();
    const out: CompiledMessages = {};
    for (const message of file.messages) {
      try {
        messages.set(message.key, parse(message.text, { requiresOtherClause: true, captureLocation: true }));
        out[message.key] = parse(message.text, { requiresOtherClause: true });
      } catch (error) {
        const { message: kind, location } = error as Error & { location?: { start: { offset: number } } };
        problems.push(
          `${where(file, message, location?.start.offset ?? 0)}: message "${message.key}" does not parse: ${syntaxInWords(kind)}`,
        );
      }
    }
    parsed.set(locale, messages);
    compiled.set(locale, out);
  }

  const reference = files.get(defaultLocale)!;
  const referenceParsed = parsed.get(defaultLocale)!;
  for (const [locale, file] of files) {
    const isDefault = locale === defaultLocale;
    const messages = parsed.get(locale)!;
    for (const message of file.messages) {
      const ast = messages.get(message.key);
      if (!ast) continue;
      const source = referenceParsed.get(message.key);
      if (!isDefault && !source && !reference.messages.some((other) => other.key === message.key)) {
        keys.push(`${where(file, message)}: message "${message.key}" is not in the ${defaultLocale} file`);
        continue;
      }
      const against = isDefault || !source ? null : { locale: defaultLocale, message: source };
      for (const { offset, what } of compareMessage(locale, message.text, ast, against)) {
        problems.push(`${where(file, message, offset)}: message "${message.key}": ${what}`);
      }
    }
    if (isDefault) continue;
    const own = new Set(file.messages.map((message) => message.key));
    for (const message of reference.messages) {
      if (!own.has(message.key)) {
        keys.push(`${file.file}: missing message "${message.key}" (the ${defaultLocale} file has it, line ${message.keyAt.line})`);
      }
    }
  }

  const fallback = compiled.get(defaultLocale)!;
  const catalog = new Map<string, CompiledMessages>();
  for (const locale of locales) catalog.set(locale, locale === defaultLocale ? fallback : { ...fallback, ...compiled.get(locale)! });
  return { catalog, problems, keys };
}

/** `checkMessages`, throwing its problems and keys (a ContentError). */
export function loadMessages(localesDir: string, locales: readonly string[], defaultLocale: string): MessageCatalog {
  const { catalog, problems, keys } = checkMessages(localesDir, locales, defaultLocale);
  if (problems.length || keys.length) throw new ContentError([...problems, ...keys]);
  return catalog;
}

/**
 * The keys whose value is rightly the same as the default locale's ("polysite",
 * "Blog"), from `"$meta": { "sameAsDefault": [...] }`: `npm run translations`
 * does not list them as probably untranslated.
 */
export function readSameAsDefault(localesDir: string, locale: string): string[] {
  return readMessagesFile(localesDir, locale).sameAsDefault;
}

/** Every message of a locale as written (no fallback, no metadata). */
export function readMessageTexts(localesDir: string, locale: string): Record<string, string> {
  return Object.fromEntries(readMessagesFile(localesDir, locale).messages.map(({ key, text }) => [key, text]));
}

/** `file:line:column` of an offset into the message's text (the start of its text without one). */
function where(file: MessagesFile, message: WrittenMessage, offset?: number): string {
  const column = offset === undefined ? message.keyAt.column : columnOf(message, offset);
  return `${file.file}:${offset === undefined ? message.keyAt.line : message.textAt.line}:${column}`;
}
