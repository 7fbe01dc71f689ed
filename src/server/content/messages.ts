import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { CompiledMessages } from '../../i18n/intl.ts';
import { ContentError } from './errors.ts';

/**
 * Reads and parses every locale's `messages.json` once. Parse errors stop
 * start-up (with file and key); a key missing in a locale falls back to the
 * default locale's message (so the site still works) and is reported by
 * `findMessageProblems`, which the tests and the build run.
 */
export type MessageCatalog = ReadonlyMap<string, CompiledMessages>;

export function loadMessages(localesDir: string, locales: readonly string[], defaultLocale: string): MessageCatalog {
  const problems: string[] = [];
  const raw = new Map(locales.map((locale) => [locale, readMessages(localesDir, locale, problems)]));
  const compiled = new Map<string, CompiledMessages>();
  for (const [locale, messages] of raw) {
    const file = messagesFile(localesDir, locale);
    const out: CompiledMessages = {};
    for (const [key, message] of Object.entries(messages)) {
      try {
        out[key] = parse(message, { requiresOtherClause: true });
      } catch (error) {
        problems.push(`${file}: message "${key}" does not parse: ${(error as Error).message}`);
      }
    }
    compiled.set(locale, out);
  }
  if (problems.length) throw new ContentError(problems);
  const fallback = compiled.get(defaultLocale)!;
  for (const [locale, messages] of compiled) if (locale !== defaultLocale) compiled.set(locale, { ...fallback, ...messages });
  return compiled;
}

/** Keys the default locale has and another lacks (or has extra). Empty when all is well. */
export function findMessageProblems(localesDir: string, locales: readonly string[], defaultLocale: string): string[] {
  const problems: string[] = [];
  const reference = Object.keys(readMessages(localesDir, defaultLocale, problems));
  for (const locale of locales) {
    if (locale === defaultLocale) continue;
    const keys = new Set(Object.keys(readMessages(localesDir, locale, problems)));
    const file = messagesFile(localesDir, locale);
    for (const key of reference) if (!keys.has(key)) problems.push(`${file}: missing message "${key}" (the ${defaultLocale} file has it)`);
    for (const key of keys) if (!reference.includes(key)) problems.push(`${file}: message "${key}" is not in the ${defaultLocale} file`);
  }
  return problems;
}

const META_KEY = '$meta';

/**
 * The keys whose value is rightly the same as the default locale's ("polysite",
 * "Blog"), from `"$meta": { "sameAsDefault": [...] }`: `npm run translations`
 * does not list them as probably untranslated.
 */
export function readSameAsDefault(localesDir: string, locale: string): string[] {
  try {
    const data = JSON.parse(readFileSync(join(localesDir, locale, 'messages.json'), 'utf8'));
    const list = data?.[META_KEY]?.sameAsDefault;
    return Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

/** Every message of a locale as written (no fallback, no metadata); problems are added to `problems`. */
export function readMessageTexts(localesDir: string, locale: string, problems: string[] = []): Record<string, string> {
  return readMessages(localesDir, locale, problems);
}

function messagesFile(localesDir: string, locale: string): string {
  return relative(process.cwd(), join(localesDir, locale, 'messages.json'));
}

function readMessages(localesDir: string, locale: string, problems: string[]): Record<string, string> {
  const file = messagesFile(localesDir, locale);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(join(localesDir, locale, 'messages.json'), 'utf8'));
  } catch (error) {
    problems.push(`${file}: not valid JSON: ${(error as Error).message}`);
    return {};
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push(`${file}: must be an object of "key": "ICU message"`);
    return {};
  }
  // "$meta" holds notes for the tooling (see readSameAsDefault), not a message.
  const entries = Object.entries(data as Record<string, unknown>).filter(([key]) => key !== META_KEY);
  for (const [key, value] of entries) if (typeof value !== 'string') problems.push(`${file}: message "${key}" must be a string`);
  return Object.fromEntries(entries.filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}
