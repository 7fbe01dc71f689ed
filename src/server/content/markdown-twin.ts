import { stringify } from 'yaml';
import type { FrontMatter } from './front-matter.ts';

/** `](href` of an inline link or image, `<href>` form included. */
const INLINE_TARGET = /(\]\(\s*)(<[^>\n]*>|[^\s)]+)/g;
/** `[label]: href` of a link reference definition. */
const REFERENCE_TARGET = /^( {0,3}\[[^\]\n]+\]:[ \t]*)(<[^>\n]*>|\S+)/;
/** A code fence's opening or closing line: its marker. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A page's Markdown for tools and language models: its source, with front matter reduced
 * to title and description, and each link and image target replaced by what the page
 * renders it as (`rewritten`: as written -> as rendered; a link to another page goes to
 * that page in the serving locale, an image to its asset). What is not in `rewritten`
 * (an external link) stays as written, and so does everything in a fenced code block.
 */
export function markdownTwin(
  front: Pick<FrontMatter, 'title' | 'description'>,
  body: string,
  rewritten: ReadonlyMap<string, string>,
): string {
  const target = (prefix: string, written: string) => {
    const bare = written.startsWith('<') ? written.slice(1, -1) : written;
    const rendered = rewritten.get(bare) ?? rewritten.get(safeDecode(bare));
    if (rendered === undefined) return prefix + written;
    return prefix + (/[\s<>()]/.test(rendered) ? `<${rendered}>` : rendered);
  };
  let fence = '';
  const lines = body.split('\n').map((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = '';
      return line;
    }
    if (marker) {
      fence = marker;
      return line;
    }
    return line
      .replace(INLINE_TARGET, (_, prefix: string, written: string) => target(prefix, written))
      .replace(REFERENCE_TARGET, (_, prefix: string, written: string) => target(prefix, written));
  });
  return `---\n${stringify({ title: front.title, description: front.description })}---\n\n${lines.join('\n').replace(/^\n+/, '')}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}
