import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';

// What a translation must keep of the default locale's message, so that the values
// a screen passes (made for the default's message) format it: the same arguments
// with the same kinds, plural and select options that exist, tags the screen
// renders. Each difference is found at the parser's own location (an offset into
// the message), which messages.ts turns into the file's line and column.

/** A difference, at an offset of the translated message, in words. */
export type MessageDifference = { offset: number; what: string };

type Kind = 'plain' | 'number' | 'date' | 'time' | 'select' | 'plural' | 'selectordinal';

/** An argument or tag as used in a message, where it is used first. */
type Use = { name: string; kind: Kind; offset: number; options: { key: string; offset: number }[] };

type Uses = { args: Map<string, Use>; tags: Map<string, number> };

/**
 * The differences of `message` (the `locale`'s, parsed with captureLocation) from
 * `reference` (the default locale's), and the plural options `locale` has no
 * category for. `text` is the message as written (for where a plural option stands).
 * Without a reference (the default locale's own message) only the plural options are checked.
 */
export function compareMessage(
  locale: string,
  text: string,
  message: MessageFormatElement[],
  reference: { locale: string; message: MessageFormatElement[] } | null,
): MessageDifference[] {
  const differences: MessageDifference[] = [];
  const own = usesOf(message, text);
  for (const use of own.args.values()) differences.push(...pluralOptionProblems(locale, use));
  if (!reference) return differences;

  const theirs = usesOf(reference.message, '');
  const other = reference.locale;
  const missing = [...theirs.args.values()].filter((use) => !own.args.has(use.name));
  for (const use of own.args.values()) {
    const expected = theirs.args.get(use.name);
    if (!expected) {
      const has = missing.length ? `has ${list(missing.map(written))}` : theirs.args.size ? 'has no such argument' : 'has no arguments';
      differences.push({ offset: use.offset, what: `\`${written(use)}\`: the ${other} message ${has}` });
    } else if (expected.kind !== use.kind) {
      differences.push({ offset: use.offset, what: `\`${written(use)}\`: the ${other} message has \`${written(expected)}\`` });
    } else if (use.kind === 'select') {
      const known = new Set(expected.options.map((option) => option.key));
      for (const option of use.options) {
        if (known.has(option.key)) continue;
        differences.push({
          offset: option.offset,
          what: `\`${written(use)}\` has the option \`${option.key}\`, which the ${other} message does not have (it has ${list([...known])})`,
        });
      }
    }
  }
  // A renamed argument is reported once, at the new name, above.
  if (missing.length && own.args.size === [...own.args.keys()].filter((name) => theirs.args.has(name)).length) {
    differences.push({
      offset: 0,
      what: `${list(missing.map(written))} missing: the ${other} message has ${missing.length === 1 ? 'it' : 'them'}`,
    });
  }
  for (const [tag, offset] of own.tags) {
    if (theirs.tags.has(tag)) continue;
    const has = theirs.tags.size ? `has only ${list([...theirs.tags.keys()].map((name) => `<${name}>`))}` : 'has no tags';
    differences.push({ offset, what: `\`<${tag}>\`: the ${other} message ${has}` });
  }
  return differences.sort((a, b) => a.offset - b.offset);
}

/** A plural's options must be `=N` or a category the locale's plural rules know, and include `other`. */
function pluralOptionProblems(locale: string, use: Use): MessageDifference[] {
  if (use.kind !== 'plural' && use.kind !== 'selectordinal') return [];
  const type = use.kind === 'plural' ? 'cardinal' : 'ordinal';
  const categories = new Intl.PluralRules(locale, { type }).resolvedOptions().pluralCategories as string[];
  const problems: MessageDifference[] = [];
  for (const option of use.options) {
    if (option.key.startsWith('=') || categories.includes(option.key)) continue;
    problems.push({
      offset: option.offset,
      what:
        `\`${written(use)}\` has the option \`${option.key}\`, which is not a ${type} plural category of ${locale} ` +
        `(it has ${list(sorted(categories))})${/^(zero|one|two)$/.test(option.key) ? `; write \`=${['zero', 'one', 'two'].indexOf(option.key)}\` for exactly that number` : ''}`,
    });
  }
  return problems;
}

/** Every argument (with its options) and tag of a message, nested ones included, each at its first use. */
function usesOf(message: MessageFormatElement[], text: string): Uses {
  const uses: Uses = { args: new Map(), tags: new Map() };
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      const offset = element.location?.start.offset ?? 0;
      if (element.type === TYPE.tag) {
        if (!uses.tags.has(element.value)) uses.tags.set(element.value, offset);
        walk(element.children);
        continue;
      }
      const kind = kindOf(element);
      if (!kind || !('value' in element)) continue;
      const options =
        element.type === TYPE.select || element.type === TYPE.plural
          ? Object.entries(element.options).map(([key, option]) => ({
              key,
              offset: optionOffset(text, key, option.location?.start.offset),
            }))
          : [];
      if (!uses.args.has(element.value)) uses.args.set(element.value, { name: element.value, kind, offset, options });
      if (element.type === TYPE.select || element.type === TYPE.plural)
        for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(message);
  return uses;
}

/** Where an option's key is written: just before its `{...}`, whose offset the parser gives. */
function optionOffset(text: string, key: string, valueOffset: number | undefined): number {
  if (valueOffset === undefined) return 0;
  const at = text.lastIndexOf(key, valueOffset);
  return at === -1 ? valueOffset : at;
}

function kindOf(element: MessageFormatElement): Kind | null {
  switch (element.type) {
    case TYPE.argument:
      return 'plain';
    case TYPE.number:
      return 'number';
    case TYPE.date:
      return 'date';
    case TYPE.time:
      return 'time';
    case TYPE.select:
      return 'select';
    case TYPE.plural:
      return element.pluralType === 'ordinal' ? 'selectordinal' : 'plural';
    default:
      return null;
  }
}

function written(use: Use): string {
  return use.kind === 'plain' ? `{${use.name}}` : `{${use.name}, ${use.kind}}`;
}

function list(items: string[]): string {
  const quoted = items.map((item) => (item.startsWith('`') ? item : `\`${item}\``));
  return quoted.length <= 1 ? (quoted[0] ?? 'none') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

const ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'];

function sorted(categories: string[]): string[] {
  return [...categories].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
}

/** The ICU parser's error kinds, in words. */
const SYNTAX: Record<string, string> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: 'an argument is not closed: a "}" is missing',
  EMPTY_ARGUMENT: 'an argument is empty: write a name inside "{}"',
  MALFORMED_ARGUMENT: 'an argument name is malformed (use letters, digits and _)',
  EXPECT_ARGUMENT_TYPE: 'a "," after an argument name needs a type after it (number, date, time, plural, select or selectordinal)',
  INVALID_ARGUMENT_TYPE: 'unknown argument type (use number, date, time, plural, select or selectordinal)',
  EXPECT_ARGUMENT_STYLE: 'a "," after the argument type needs a style after it',
  INVALID_NUMBER_SKELETON: 'the number skeleton after "::" is not valid',
  INVALID_DATE_TIME_SKELETON: 'the date or time skeleton after "::" is not valid',
  EXPECT_NUMBER_SKELETON: 'a number skeleton is expected after "::"',
  EXPECT_DATE_TIME_SKELETON: 'a date or time skeleton is expected after "::"',
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: 'an apostrophe in the argument style is not closed',
  EXPECT_SELECT_ARGUMENT_OPTIONS: 'a select needs its options: {x, select, a {…} other {…}}',
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: 'a plural "offset:" needs a number after it',
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: 'a plural "offset:" must be a whole number',
  EXPECT_SELECT_ARGUMENT_SELECTOR: 'a select needs its options, "other" among them',
  EXPECT_PLURAL_ARGUMENT_SELECTOR: 'a plural needs its options, "other" among them',
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT: 'a select option needs its text in braces after it: a {…}',
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT: 'a plural option needs its text in braces after it: one {…}',
  INVALID_PLURAL_ARGUMENT_SELECTOR: 'a plural option must be a category (zero, one, two, few, many, other) or =N',
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: 'a plural has the same option twice',
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: 'a select has the same option twice',
  MISSING_OTHER_CLAUSE: 'a plural or select needs an "other" option',
  INVALID_TAG: 'a tag is malformed (write <b>…</b>, without attributes)',
  INVALID_TAG_NAME: 'a tag name is not valid',
  UNMATCHED_CLOSING_TAG: 'a closing tag does not match the tag it closes',
  UNCLOSED_TAG: 'a tag is opened and never closed',
};

/** The parser's error in words, with its code (for a search). */
export function syntaxInWords(kind: string): string {
  const words = SYNTAX[kind];
  return words ? `${words} (${kind})` : kind;
}
