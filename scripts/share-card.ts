// The share image's HTML (Open Graph, 1200 x 630), rendered by scripts/share-images.ts.
// Flat colours from src/client/styles.css and no gradients or shadows: the PNG stays
// small, and a palette of at most 256 colours holds it without loss.
import { escapeHtml } from '../src/server/escape-html.ts';

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

export type ShareCard = {
  locale: string;
  dir: 'ltr' | 'rtl';
  name: string;
  tagline: string;
  /** Every locale's name in its own language, in the site's order; the card's own is marked. */
  languages: { locale: string; name: string }[];
};

/**
 * Installed fonts by their full names (`local()`), so a missing one fails the render
 * instead of falling back to a font without Arabic joining or Japanese glyphs.
 * Debian: fonts-noto-core (Latin, Arabic) and fonts-noto-cjk (Japanese).
 */
export const SHARE_FONTS = [
  { family: 'Share Latin', weight: 400, local: ['Noto Sans Regular', 'NotoSans-Regular'] },
  { family: 'Share Latin', weight: 700, local: ['Noto Sans Bold', 'NotoSans-Bold'] },
  { family: 'Share Arabic', weight: 400, local: ['Noto Sans Arabic Regular', 'NotoSansArabic-Regular'] },
  { family: 'Share Arabic', weight: 700, local: ['Noto Sans Arabic Bold', 'NotoSansArabic-Bold'] },
  { family: 'Share Japanese', weight: 400, local: ['Noto Sans CJK JP Regular', 'NotoSansCJKjp-Regular'] },
  { family: 'Share Japanese', weight: 700, local: ['Noto Sans CJK JP Bold', 'NotoSansCJKjp-Bold'] },
];

const fontFaces = SHARE_FONTS.map(
  (font) =>
    `@font-face { font-family: "${font.family}"; font-weight: ${font.weight}; src: ${font.local.map((name) => `local("${name}")`).join(', ')}; }`,
).join('\n');

// The favicon's mark (src/client/favicon.svg), in white with the letter cut out in the accent colour.
const MARK =
  '<svg class="mark" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#ffffff"/><path d="M9 24V8h7.5a5 5 0 0 1 0 10H13v6z" fill="#1d4ed8"/></svg>';

export function shareCardHtml(card: ShareCard): string {
  const languages = card.languages
    .map(
      (language) =>
        `<li lang="${escapeHtml(language.locale)}"${language.locale === card.locale ? ' class="current"' : ''}>${escapeHtml(language.name)}</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(card.locale)}" dir="${card.dir}">
<head>
<meta charset="utf-8">
<style>
${fontFaces}
* { box-sizing: border-box; margin: 0; padding: 0; }
html, body { width: ${SHARE_WIDTH}px; height: ${SHARE_HEIGHT}px; overflow: hidden; }
body {
  display: flex;
  flex-direction: column;
  background: #1d4ed8;
  color: #ffffff;
  font-family: "Share Latin", "Share Arabic", "Share Japanese";
  -webkit-font-smoothing: antialiased;
}
main {
  flex: 1;
  display: flex;
  flex-direction: column;
  justify-content: center;
  gap: 36px;
  padding-inline: 88px;
}
.brand { display: flex; align-items: center; gap: 28px; }
.mark { width: 104px; height: 104px; flex: none; }
.name { font-size: 96px; font-weight: 700; line-height: 1; letter-spacing: -0.02em; direction: ltr; }
.tagline { font-size: 60px; font-weight: 700; line-height: 1.3; color: #dbe6ff; max-width: 1000px; text-wrap: balance; }
:lang(ja) .tagline { font-size: 64px; line-height: 1.35; }
:lang(ar) .tagline { font-size: 64px; line-height: 1.5; }
ul {
  flex: none;
  height: 112px;
  display: flex;
  align-items: center;
  gap: 40px;
  padding-inline: 88px;
  list-style: none;
  background: #ffffff;
  color: #57606a;
  font-size: 30px;
}
li.current { color: #1d4ed8; font-weight: 700; }
/* Arabic letters are smaller than Latin ones at one font size. */
li:lang(ar) { font-size: 34px; }
</style>
</head>
<body>
<main>
<div class="brand">${MARK}<span class="name">${escapeHtml(card.name)}</span></div>
<p class="tagline">${escapeHtml(card.tagline)}</p>
</main>
<ul>${languages}</ul>
</body>
</html>
`;
}
