/** The language switcher's choice, remembered for `/` (the server's negotiation reads it first). */
export function rememberLocale(locale: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support (Safari, Firefox).
  document.cookie = `locale=${encodeURIComponent(locale)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
