// The root page of a static export (`/`, out/index.html) has no server to pick the
// visitor's language: this small script does what the server's negotiation does
// (src/i18n/negotiate.ts, the same function): the `locale` cookie the language
// switcher sets, else the best of the browser's languages, else the default (the
// page's own language). Its own file, loaded by that page only: never part of the
// site's bundle. With JavaScript off, the visitor picks one of the page's links.
import { negotiateLocale } from '../i18n/negotiate.ts';

const links = [...document.querySelectorAll<HTMLAnchorElement>('a[hreflang]')];
let cookie: string | undefined;
try {
  cookie = decodeURIComponent(/(?:^|;\s*)locale=([^;]*)/.exec(document.cookie)?.[1] ?? '');
} catch {
  // A malformed cookie is no choice.
}
const locale = negotiateLocale(
  // The browser's list in its order of preference: equal weights, so the first listed wins a tie, as in the header.
  { cookie, acceptLanguage: navigator.languages.join(',') },
  links.map((link) => link.hreflang),
  document.documentElement.lang,
);
const target = links.find((link) => link.hreflang === locale);
if (target) location.replace(target.pathname + location.search + location.hash);
