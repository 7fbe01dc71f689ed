import Negotiator from 'negotiator';

/**
 * Picks the locale for a visitor who arrived without one in the URL.
 * Order: the `locale` cookie (an explicit choice in the language switcher), then
 * `Accept-Language` (q-values; `de-CH` falls back to `de`; `pt-BR` with no `pt`
 * matches nothing), then the site's default.
 *
 * negotiator is the jshttp module Koa's own `ctx.acceptsLanguages` uses; it does
 * q-values and prefix matching per RFC 4647 lookup, which is what we want here.
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
  if (input.acceptLanguage) {
    // negotiator throws on nothing, but a pathological header can be long: cap it.
    const header = input.acceptLanguage.slice(0, 1024);
    const [best] = new Negotiator({ headers: { 'accept-language': header } }).languages([...locales]);
    // A lone `*` makes negotiator return the first locale listed; treat it as "no preference".
    if (best && header.trim() !== '*') return best;
  }
  return defaultLocale;
}
