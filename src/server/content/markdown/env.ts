import type { Heading } from '../../../routes/types.ts';

/**
 * The page's UI words that the compiled HTML carries, in the content's language:
 * names for the scrolling boxes of tables and code, for heading anchors, and the
 * copy button's label and announcement.
 */
export type MarkdownLabels = {
  table(number: number): string;
  code(number: number): string;
  headingLink(heading: string): string;
  copyCode(): string;
  codeCopied(): string;
};

export type InternalLink = { href: string; line: number };

/** A problem or a warning at a line of the page's file. */
export type LineMessage = { line: number; message: string };

/** Set per call through markdown-it's env: where internal links go, the labels, and what the rules collect. */
export type MarkdownEnv = {
  localize: (href: string) => string;
  labels: MarkdownLabels;
  links: InternalLink[];
  headings: Heading[];
  /** Mistakes that stop the build. */
  problems: LineMessage[];
  /** What the build reports and goes on (a language that is not highlighted). */
  warnings: LineMessage[];
  lineOffset: number;
  tables: number;
  codes: number;
};
