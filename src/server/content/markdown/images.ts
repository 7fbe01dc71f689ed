import type MarkdownIt from 'markdown-it';
import type { PageImage } from '../images.ts';
import { envOf, lineIn } from './env.ts';
import { safeDecode } from './links.ts';

/** GitHub's fragments for an image shown in one theme only, and the class that does it (site.css). */
const THEMED = /#gh-(dark|light)-mode-only$/;

/** The width a page's column shows an image at, at most (its measure), for the browser's pick from the srcset. */
const SIZES = '(min-width: 48rem) 46rem, 100vw';

/**
 * `![alt](src)`: the host finds the file (beside the page, or `/images/...` of the
 * page's locale) and gives its hashed asset, size and WebP versions. An image
 * without alt text is a build error: a reader who cannot see it gets nothing.
 */
export function images(md: MarkdownIt): void {
  md.core.ruler.push('images', (state) => {
    const env = envOf(state);
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      let from = 0;
      for (const token of block.children) {
        if (token.type !== 'image') continue;
        const written = safeDecode(String(token.attrGet('src') ?? ''));
        // `x.png#gh-dark-mode-only`: the file is `x.png`, shown in the dark theme only (the site's, chosen or the system's).
        const only = THEMED.exec(written)?.[1];
        const src = only ? written.replace(THEMED, '') : written;
        const at = block.content.indexOf(`](${src}`, from);
        const line = lineIn(block, at === -1 ? '' : `](${src}`, env, from);
        if (at !== -1) from = at + 1;
        if (!token.content.trim()) {
          env.problems.push({
            line,
            message: `the image ${src} has no alt text: describe it between the brackets, ![What it shows](${src})`,
          });
        }
        token.meta = { image: env.image(src, line), only };
      }
    }
  });

  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const { image, only } = (token.meta as { image?: PageImage; only?: string } | null) ?? {};
    if (!image) return '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const title = token.attrGet('title');
    const img =
      `<img src="${image.src}" alt="${md.utils.escapeHtml(alt)}"${title ? ` title="${md.utils.escapeHtml(title)}"` : ''}` +
      ` width="${image.width}" height="${image.height}"${only ? ` class="${only}-only"` : ''} loading="lazy" decoding="async">`;
    if (!image.variants.length) return img;
    const srcset = image.variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ');
    return `<picture><source type="image/webp" srcset="${srcset}" sizes="${SIZES}">${img}</picture>`;
  };
}
