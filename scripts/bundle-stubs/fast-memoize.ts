// The browser bundle's @formatjs/fast-memoize (scripts/build.ts aliases it here). Its only
// callers there are intl-messageformat's default formatters, which the browser never makes:
// src/i18n/intl.ts#makeMessageIntl hands every message the formatters it keeps in the
// IntlCache. Same exports, no memo: the first load does not carry a memoiser nobody calls.
export const strategies = { variadic: undefined, monadic: undefined };

export function memoize<F>(fn: F): F {
  return fn;
}
