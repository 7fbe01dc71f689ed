/**
 * Picks the locale for a visitor who arrived without one in the URL.
 * Order: the `locale` cookie (an explicit choice in the language switcher), then
 * `Accept-Language`, then the site's default.
 *
 * Accept-Language: each locale scores the highest q of the ranges that name it,
 * either exactly (`de` for `de`) or as a regional variant (`de-CH` for `de`, the
 * fallback RFC 4647 "lookup" does by truncating the tag). Taking the best q, not
 * the most specific match, matters: `de-CH,fr;q=0.9,de;q=0.8` is someone who
 * wants German first, and negotiator's most-specific rule would give them French.
 * Ties go to the range listed first. `pt-BR` with no `pt` matches nothing; a
 * lone `*` is "no preference", so the default wins; `de;q=0` rules `de` out.
 */
export function negotiateLocale(
  input: { cookie: string | undefined; acceptLanguage: string | undefined },
  locales: readonly string[],
  defaultLocale: string,
): string {
  if (input.cookie) {
    const wanted = input.cookie.toLowerCase();
    const chosen = locales.find((locale) => locale.toLowerCase() === wanted);
    if (chosen) return chosen;
  }
  if (input.acceptLanguage) return bestLocale(parseAcceptLanguage(input.acceptLanguage), locales) ?? defaultLocale;
  return defaultLocale;
}

type Range = { tag: string; q: number; order: number };

// A pathological header can be long: only its start counts, and only so many ranges.
const MAX_HEADER = 1024;
const MAX_RANGES = 32;
const TAG = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;

/** `de-CH, de;q=0.9` -> ranges, lower-cased, malformed ones dropped. */
function parseAcceptLanguage(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.slice(0, MAX_HEADER).split(',')) {
    if (ranges.length === MAX_RANGES) break;
    const [rawTag = '', ...params] = part.split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!TAG.test(tag)) continue; // also drops `*`: it states no preference among ours
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key === 'q') q = value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : Number.NaN;
    }
    if (!Number.isNaN(q)) ranges.push({ tag, q, order: ranges.length });
  }
  return ranges;
}

function bestLocale(ranges: readonly Range[], locales: readonly string[]): string | undefined {
  let best: { locale: string; q: number; order: number } | undefined;
  for (const locale of locales) {
    const wanted = locale.toLowerCase();
    // An exact `de;q=0` is a refusal, whatever a regional range says.
    if (ranges.some((range) => range.tag === wanted && range.q === 0)) continue;
    for (const range of ranges) {
      if (range.q === 0 || (range.tag !== wanted && !range.tag.startsWith(`${wanted}-`))) continue;
      if (!best || range.q > best.q || (range.q === best.q && range.order < best.order)) best = { locale, q: range.q, order: range.order };
    }
  }
  return best?.locale;
}
