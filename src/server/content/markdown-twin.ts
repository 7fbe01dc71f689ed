import { stringify } from 'yaml';
import { parseFenceInfo } from './markdown/code-blocks.ts';
import { CALLOUT_KINDS, type CalloutKind } from './markdown/env.ts';

/** `](href` of an inline link or image, `<href>` form included. */
const INLINE_TARGET = /(\]\(\s*)(<[^>\n]*>|[^\s)]+)/g;
/** `[label]: href` of a link reference definition. */
const REFERENCE_TARGET = /^( {0,3}\[[^\]\n]+\]:[ \t]*)(<[^>\n]*>|\S+)/;
/** A code fence's opening or closing line: its indent, marker and info string. */
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** A container's opening line (`:::note Title`, `:::tabs key=pkg`, `:::code-group`): its marker, name and the rest. */
const CONTAINER_OPEN = /^ {0,3}(:{3,})\s*([a-z][\w-]*)(?:\s+(.*?))?\s*$/i;
const CONTAINER_CLOSE = /^ {0,3}(:{3,})\s*$/;
/** A tab's label in `:::tabs` (`== npm`). */
const TAB_LABEL = /^ {0,3}==\s+(\S.*?)\s*$/;
/** GitHub's alert marker on a blockquote's first line: its `>`s, kind and title. */
const ALERT = /^((?: {0,3}>[ \t]?)+)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(.*)$/i;
/** A footnote definition's first line (`[^id]: text`), and a reference to one (`[^id]`). */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^([^\]\s]+)\]:[ \t]?(.*)$/;
const FOOTNOTE_REFERENCE = /\[\^([^\]\s]+)\]/g;
/** Inline code spans: left as written. */
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
const KINDS = new Set<string>(CALLOUT_KINDS);

/** What the twin names in words, in the page's language (the labels its HTML carries). */
export type TwinLabels = { callout: (kind: CalloutKind) => string; footnotes: string };

/** What a twin's front matter holds: enough for a tool to cite and date the page. */
export type TwinFront = { title: string; description: string; language: string; canonical: string; lastUpdated?: string | undefined };

/** A twin: its front matter, then its flattened body (`markdownTwinBody`). */
export function markdownTwin(front: TwinFront, body: string): string {
  const { lastUpdated, ...always } = front;
  return `---\n${stringify({ ...always, ...(lastUpdated !== undefined && { lastUpdated }) })}---\n\n${body}`;
}

type Container = { kind: 'callout' | 'tabs' | 'code-group'; marker: number };

/**
 * A page's Markdown for tools and language models, without front matter (llms.ts adds
 * it, with what only the site knows: the canonical URL and the origin of its links). Each
 * link and image target is what the page renders it as (`rewritten`: as written -> as rendered; a link to another
 * page goes to that page in the serving locale, an image to its asset); what is not in
 * `rewritten` (an external link) stays as written. The site's own syntax becomes plain
 * Markdown that reads the same anywhere:
 * - a callout (`:::tip Title` or `> [!TIP] Title`) is a quote that starts with its bold
 *   title (the kind's word in the page's language when it has none);
 * - tabs and code groups are each tab in turn under its bold label (a code block's
 *   `title="…"` becomes that label; line marks and options leave its info string);
 * - footnotes are numbered `[1]` in the order of their first reference, as the page shows
 *   them, and their notes are a numbered list at the end under the page's "Footnotes".
 * Everything in a fenced code block stays as written.
 */
/**
 * Where the site's origin goes in a twin: a link or image the page renders as a path on
 * this site (`/de/docs/x`) is written after this mark, and llms.ts puts the public URL in
 * its place when it serves the twin (the build does not know the origin it will be served
 * from). A private-use character, taken out of the author's text first.
 */
export const SITE_ORIGIN_MARK = '\u{E000}';

/** A link or image target as a twin writes what the page renders it as (`local`). */
export function twinTarget(local: string): string {
  // Made absolute where served: a twin is read away from the site (pasted, fetched by a tool).
  const rendered = local.startsWith('/') && !local.startsWith('//') ? SITE_ORIGIN_MARK + local : local;
  return /[\s<>()]/.test(rendered) ? `<${rendered}>` : rendered;
}

export function markdownTwinBody(written: string, rewritten: ReadonlyMap<string, string>, labels: TwinLabels): string {
  const body = written.replaceAll(SITE_ORIGIN_MARK, '\u{FFFD}');
  const target = (prefix: string, written: string) => {
    const bare = written.startsWith('<') ? written.slice(1, -1) : written;
    // An image for one theme (`x.png#gh-dark-mode-only`) is its file's asset, fragment kept.
    const fragment = /#gh-(dark|light)-mode-only$/.exec(bare)?.[0] ?? '';
    const file = bare.slice(0, bare.length - fragment.length);
    const asset = rewritten.get(file) ?? rewritten.get(safeDecode(file));
    const local = asset === undefined ? undefined : asset + fragment;
    return local === undefined ? prefix + written : prefix + twinTarget(local);
  };
  const notes = footnoteNumbers(body);
  const noteText = new Map<string, string[]>();
  const out: string[] = [];
  const stack: Container[] = [];
  /** `> ` for each callout the line is inside. */
  let quote = '';
  let fence = '';
  /** The footnote whose definition the next indented lines continue. */
  let note: string[] | null = null;

  for (const line of body.split('\n')) {
    if (fence) {
      const marker = FENCE.exec(line)?.[2];
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && !FENCE.exec(line)![3]!.trim()) fence = '';
      out.push(quote + line);
      continue;
    }
    if (note) {
      if (/^( {4}|\t)/.test(line) || (line.trim() === '' && note.length)) {
        note.push(inlineText(line.replace(/^( {4}|\t)/, ''), notes, target));
        continue;
      }
      note = null;
    }
    if (!line.trim()) {
      // One blank line, where this loop already ended a block with one.
      if (!isBlank(out.at(-1))) out.push(quote.trimEnd());
      continue;
    }
    const opened = FENCE.exec(line);
    if (opened) {
      const [, indent, marker, info] = opened as unknown as [string, string, string, string];
      fence = marker;
      const { lang, title } = parseFenceInfo(info, () => {});
      if (title) out.push(...gap(out, quote), `${quote}${indent}**${title}**`, quote.trimEnd());
      out.push(`${quote}${indent}${marker}${lang}`);
      continue;
    }
    const definition = FOOTNOTE_DEFINITION.exec(line);
    if (definition && notes.has(definition[1]!)) {
      note = [inlineText(definition[2]!, notes, target)];
      noteText.set(definition[1]!, note);
      continue;
    }
    const open = CONTAINER_OPEN.exec(line);
    if (open) {
      const [, marker, name, rest = ''] = open as unknown as [string, string, string, string | undefined];
      const kind = name === 'tabs' || name === 'code-group' ? name : 'callout';
      stack.push({ kind, marker: marker.length });
      if (kind === 'callout') {
        const word = KINDS.has(name) ? labels.callout(name as CalloutKind) : name;
        out.push(...gap(out, quote), `${quote}> **${rest ? `${word}: ${rest}` : word}**`, `${quote}>`);
        quote += '> ';
      }
      continue;
    }
    const close = CONTAINER_CLOSE.exec(line);
    if (close && stack.length) {
      const index = stack.findLastIndex((container) => container.marker <= close[1]!.length);
      for (const container of stack.splice(index === -1 ? stack.length - 1 : index)) {
        if (container.kind === 'callout') quote = quote.slice(2);
      }
      // A blank line ends the quote: the next paragraph is not pulled into it.
      out.push(...gap(out, quote));
      continue;
    }
    const label = stack.at(-1)?.kind === 'tabs' ? TAB_LABEL.exec(line) : null;
    if (label) {
      out.push(...gap(out, quote), `${quote}**${label[1]}**`, quote.trimEnd());
      continue;
    }
    const alert = ALERT.exec(line);
    if (alert) {
      const [, prefix, kind, title] = alert as unknown as [string, string, string, string];
      const word = labels.callout(kind.toLowerCase() as CalloutKind);
      out.push(`${prefix}**${title.trim() ? `${word}: ${title.trim()}` : word}**`, prefix.trimEnd());
      continue;
    }
    out.push(
      quote + inlineText(line, notes, target).replace(REFERENCE_TARGET, (_, prefix: string, written: string) => target(prefix, written)),
    );
  }

  const text = out.join('\n').replace(/^\n+/, '').replace(/\n*$/, '\n');
  if (!noteText.size) return text;
  const list = [...notes]
    .filter(([id]) => noteText.has(id))
    .map(([id, number]) => {
      const [first = '', ...more] = noteText.get(id)!;
      const indent = ' '.repeat(`${number}. `.length);
      return [`${number}. ${first}`, ...more.map((line) => (line ? indent + line : ''))].join('\n').trimEnd();
    });
  return `${text}\n## ${labels.footnotes}\n\n${list.join('\n')}\n`;
}

/** A line that shows nothing: empty, or a quote's `>`s alone. */
function isBlank(line: string | undefined): boolean {
  return line === undefined || /^[\s>]*$/.test(line);
}

/** The blank line a new block needs after the last one, unless there is one. */
function gap(out: readonly string[], quote: string): string[] {
  return isBlank(out.at(-1)) ? [] : [quote.trimEnd()];
}

/** Footnote ids in the order of their first reference (outside code), numbered from 1, as markdown-it-footnote numbers them. */
function footnoteNumbers(body: string): Map<string, number> {
  const numbers = new Map<string, number>();
  if (!body.includes('[^')) return numbers;
  const defined = new Set<string>();
  let fence = '';
  const prose: string[] = [];
  for (const line of body.split('\n')) {
    const marker = FENCE.exec(line)?.[2];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = '';
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const definition = FOOTNOTE_DEFINITION.exec(line);
    if (definition) {
      defined.add(definition[1]!);
      prose.push(definition[2]!);
    } else prose.push(line);
  }
  for (const line of prose) {
    for (const [, id] of line.replace(CODE_SPAN, '').matchAll(FOOTNOTE_REFERENCE)) {
      if (defined.has(id!) && !numbers.has(id!)) numbers.set(id!, numbers.size + 1);
    }
  }
  return numbers;
}

/** A line of prose: link targets as rendered, footnote references as their numbers, code spans as written. */
function inlineText(line: string, notes: ReadonlyMap<string, number>, target: (prefix: string, written: string) => string): string {
  let text = '';
  let last = 0;
  const prose = (part: string) =>
    part
      .replace(INLINE_TARGET, (_, prefix: string, written: string) => target(prefix, written))
      .replace(FOOTNOTE_REFERENCE, (whole, id: string) => (notes.has(id) ? `[${notes.get(id)}]` : whole));
  for (const match of line.matchAll(CODE_SPAN)) {
    text += prose(line.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return text + prose(line.slice(last));
}

function safeDecode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}
