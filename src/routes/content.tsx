import { CONTENT_ATTRIBUTE } from './page-data.ts';

/**
 * Markdown compiled to HTML at start-up (raw HTML in the source is escaped there).
 * The attribute lets the browser read the HTML back instead of shipping it twice.
 */
export function Content({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: compiled at start-up by markdown-it with raw HTML escaped (src/server/content/markdown.ts).
  return <div className="prose" {...{ [CONTENT_ATTRIBUTE]: '' }} dangerouslySetInnerHTML={{ __html: html }} />;
}
