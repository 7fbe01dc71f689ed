import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/server/content/markdown.ts';
import { sectionsOf } from '../../../src/server/content/sections.ts';
import { MARKDOWN_LABELS } from '../../helpers/content.ts';

const render = (body: string) =>
  renderMarkdown(body, {
    host: { link: (href) => `/en${href === '/' ? '' : href}`, image: () => undefined },
    labels: MARKDOWN_LABELS,
    lineOffset: 0,
  });

const sections = (body: string) => sectionsOf(render(body).tokens);

test('a page is cut at its headings, each section with its heading id and plain text', () => {
  const body =
    'Intro with **bold** and `code`.\n\n## First part\n\nSome [link](/docs/x) text.\n\n### Deeper\n\n- one\n- two\n\n## Second\n\n| a | b |\n|---|---|\n| c | d |\n';
  assert.deepEqual(sections(body), [
    { id: '', heading: '', text: 'Intro with bold and code.' },
    { id: 'first-part', heading: 'First part', text: 'Some link text.' },
    { id: 'deeper', heading: 'Deeper', text: 'one two' },
    { id: 'second', heading: 'Second', text: 'a b c d' },
  ]);
});

test('the ids are the rendered heading ids, duplicates included', () => {
  const body = '## Setup\n\nA\n\n## Setup\n\nB\n';
  const { html, tokens } = render(body);
  const ids = sectionsOf(tokens).map((section) => section.id);
  assert.deepEqual(ids, ['', 'setup', 'setup-1']);
  for (const id of ids.slice(1)) assert.match(html, new RegExp(`<h2 id="${id}">`));
});

test('code blocks are searchable text; raw HTML stays text, never markup', () => {
  const [intro] = sections('```sh\nnpm run build\n```\n\n<script>alert(1)</script>\n');
  assert.equal(intro!.text, 'npm run build <script>alert(1)</script>');
});

test('a page without text before its first heading still has an empty top section', () => {
  assert.deepEqual(sections('## Only\n\nText\n')[0], { id: '', heading: '', text: '' });
});
