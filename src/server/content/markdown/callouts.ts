import type MarkdownIt from 'markdown-it';
import type { PluginWithParams, Token } from 'markdown-it';
import container from 'markdown-it-container';
import { CALLOUT_KINDS, type CalloutKind, envOf } from './env.ts';

/** Containers that other rules own (tabs and code groups): left to them, never an unknown callout. */
const OTHER_CONTAINERS = new Set(['tabs', 'code-group']);
const KINDS = new Set<string>(CALLOUT_KINDS);
/** GitHub's alerts and the callout each is shown as. */
const ALERTS: Record<string, CalloutKind> = { NOTE: 'note', TIP: 'tip', IMPORTANT: 'important', WARNING: 'warning', CAUTION: 'caution' };
const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(.*)$/i;
/** A glyph per kind, decorative (hidden from screen readers: the title says the kind). */
const ICONS: Record<CalloutKind, string> = {
  note: 'ℹ\uFE0E',
  info: 'ℹ\uFE0E',
  tip: '✓\uFE0E',
  important: '!',
  warning: '⚠\uFE0E',
  danger: '✕\uFE0E',
  caution: '✕\uFE0E',
};

type Callout = { kind: CalloutKind; title: string };

/**
 * Callouts: `:::note [title]` ... `:::` containers (markdown-it-container) and GitHub's
 * `> [!NOTE]` alerts, rendered the same: an `aside` named by its visible title (the
 * kind's word in the page's language unless the author gave one), with a decorative
 * icon. An unknown kind and a container never closed are build errors at their line.
 */
export function callouts(md: MarkdownIt): void {
  // The plugin's types are written against an older markdown-it's; its code works with this one.
  md.use(container as unknown as PluginWithParams, 'callout', {
    validate: (params: string) => {
      const kind = params.trim().split(/\s+/, 1)[0]!;
      return /^[a-z][\w-]*$/i.test(kind) && !OTHER_CONTAINERS.has(kind);
    },
  });

  md.core.ruler.push('callouts', (state) => {
    const env = envOf(state);
    const lines = state.tokens.some((token) => token.type === 'container_callout_open') ? env.source.split('\n') : [];
    for (const [i, token] of state.tokens.entries()) {
      if (token.type === 'container_callout_open') {
        const line = (token.map?.[0] ?? 0) + env.lineOffset;
        const [kind = '', ...title] = token.info.trim().split(/\s+/);
        if (!KINDS.has(kind)) {
          env.problems.push({
            line,
            message: `unknown callout kind ":::${kind}": use one of ${CALLOUT_KINDS.map((known) => `:::${known}`).join(', ')}`,
          });
        }
        const end = lines[token.map?.[1] ?? lines.length]?.replace(/^[\s>]*/, '') ?? '';
        if (!new RegExp(`^:{${token.markup.length},}\\s*$`).test(end)) {
          env.problems.push({ line, message: `the callout ":::${kind}" is never closed: end it with a line of ${token.markup}` });
        }
        const known = KINDS.has(kind) ? env.labels.callout(kind as CalloutKind) : kind;
        token.meta = { kind: kind as CalloutKind, title: title.join(' ') || known } satisfies Callout;
      } else if (token.type === 'blockquote_open') {
        const alert = alertOf(state.tokens, i);
        if (!alert) continue;
        token.meta = { kind: alert.kind, title: alert.title || env.labels.callout(alert.kind) } satisfies Callout;
        const close = state.tokens.find((other, j) => j > i && other.type === 'blockquote_close' && other.level === token.level);
        if (close) close.meta = { callout: true };
      }
    }
  });

  const open = (callout: Callout, env: unknown) => {
    const id = `callout-${++envOf({ env }).callouts}`;
    return (
      `<aside class="callout callout-${callout.kind}" aria-labelledby="${id}">` +
      `<p class="callout-title" id="${id}"><span class="callout-icon" aria-hidden="true">${ICONS[callout.kind] ?? ''}</span>${md.utils.escapeHtml(callout.title)}</p>\n`
    );
  };
  md.renderer.rules.container_callout_open = (tokens, idx, _options, env) => open(tokens[idx]!.meta as Callout, env);
  md.renderer.rules.container_callout_close = () => '</aside>\n';
  md.renderer.rules.blockquote_open = (tokens, idx, options, env, self) =>
    tokens[idx]!.meta ? open(tokens[idx]!.meta as Callout, env) : self.renderToken(tokens, idx, options);
  md.renderer.rules.blockquote_close = (tokens, idx, options, _env, self) =>
    tokens[idx]!.meta ? '</aside>\n' : self.renderToken(tokens, idx, options);
}

/**
 * The alert a blockquote is (`> [!NOTE]` alone on its first line, or followed by a
 * title), with the marker taken out of its text; undefined for a plain quote.
 */
function alertOf(tokens: Token[], i: number): { kind: CalloutKind; title: string } | undefined {
  const [paragraph, inline, after] = [tokens[i + 1], tokens[i + 2], tokens[i + 3]];
  if (paragraph?.type !== 'paragraph_open' || inline?.type !== 'inline' || !inline.children) return undefined;
  const firstLine = inline.content.split('\n', 1)[0]!;
  const match = firstLine.match(ALERT);
  if (!match) return undefined;
  // The first line's tokens (up to the first line break) are the marker and title: drop them.
  const children = inline.children;
  const cut = children.findIndex((child) => child.type === 'softbreak' || child.type === 'hardbreak');
  inline.children = cut === -1 ? [] : children.slice(cut + 1);
  inline.content = inline.content.slice(firstLine.length + 1);
  if (!inline.children.length && after?.type === 'paragraph_close') {
    // Nothing but the marker in the first paragraph: it goes entirely.
    tokens.splice(i + 1, 3);
  }
  return { kind: ALERTS[match[1]!.toUpperCase()]!, title: match[2]!.trim() };
}
