import type { Token } from 'markdown-it';
import type { Heading } from '../../../routes/types.ts';
import type { PageImage } from '../images.ts';

/** The callout kinds: `:::kind` containers and GitHub alerts (`> [!KIND]`). */
export const CALLOUT_KINDS = ['note', 'tip', 'info', 'important', 'warning', 'danger', 'caution'] as const;
export type CalloutKind = (typeof CALLOUT_KINDS)[number];

/**
 * The page's UI words that the compiled HTML carries, in the content's language:
 * names for the scrolling boxes of tables and code, for heading anchors, the
 * callouts' default titles, the footnotes, and the copy button's label and announcement.
 */
export type MarkdownLabels = {
  table(number: number): string;
  code(number: number): string;
  headingLink(heading: string): string;
  callout(kind: CalloutKind): string;
  footnotes: string;
  footnoteBack(number: number): string;
  copyCode(): string;
  codeCopied(): string;
};

/** A problem or a warning at a line of the page's file. */
export type LineMessage = { line: number; message: string };

/** What the caller decides for the page: where a link goes and which file an image is. */
export type MarkdownHost = {
  /** The href a link is rendered with (`/docs/x#y` -> `/de/docs/x#y`); reports a broken one itself. */
  link(href: string, line: number): string;
  /** The image a page's `![alt](src)` shows, or undefined after reporting why there is none. */
  image(src: string, line: number): PageImage | undefined;
};

/** Set per call through markdown-it's env: the host, the labels, and what the rules collect. */
export type MarkdownEnv = MarkdownHost & {
  labels: MarkdownLabels;
  /** The body's first line in its file, for reports. */
  lineOffset: number;
  /** The body, for rules that look at its lines (is a container closed?). */
  source: string;
  headings: Heading[];
  /** Mistakes that stop the build. */
  problems: LineMessage[];
  /** What the build reports and goes on (a language that is not highlighted, raw HTML the allowlist drops). */
  warnings: LineMessage[];
  tables: number;
  codes: number;
  callouts: number;
  tasks: number;
};

export type Env = MarkdownEnv;

export function envOf(state: { env: unknown }): Env {
  return state.env as Env;
}

/**
 * The file line of `needle` in an inline block (its first occurrence from `from`), for
 * reports that name the exact line of a link or image in a multi-line paragraph; the
 * block's first line when it is not found.
 */
export function lineIn(block: Token, needle: string, env: Env, from = 0): number {
  const start = (block.map?.[0] ?? 0) + env.lineOffset;
  const at = needle ? block.content.indexOf(needle, from) : -1;
  if (at === -1) return start;
  let lines = 0;
  for (let i = block.content.indexOf('\n'); i !== -1 && i < at; i = block.content.indexOf('\n', i + 1)) lines++;
  return start + lines;
}
