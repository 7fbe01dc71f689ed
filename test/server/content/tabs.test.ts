import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/server/content/markdown.ts';
import { loadSite } from '../../../src/server/content/site.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import type { ContentError } from '../../../src/server/content/errors.ts';
import { MARKDOWN_LABELS as LABELS, makeLocales, makePage } from '../../helpers/content.ts';

function render(body: string) {
  return renderMarkdown(body, { host: { link: (href) => href, image: () => undefined }, labels: LABELS, lineOffset: 1 });
}

function labels(html: string): string[] {
  return [...html.matchAll(/<p class="tab-label">([^<]*)<\/p>/g)].map((match) => match[1]!);
}

function compile(body: string) {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({}, body) } });
  return loadSite(dir, ['en'], 'en', loadMessages(dir, ['en'], 'en'), { warn: () => {} });
}

test('a tab set is every panel under its label, in order, with its key', () => {
  const { html, problems } = render(':::tabs key=pkg\n== npm\n```sh\nnpm ci\n```\n== pnpm\nSome *text*.\n:::\n\nAfter.\n');
  assert.deepEqual(problems, []);
  assert.match(
    html,
    /^<div class="tabs" data-tabs-key="pkg">\n<div class="tab-panel"><p class="tab-label">npm<\/p>\n<div class="code-block">/,
  );
  assert.match(
    html,
    /<div class="tab-panel"><p class="tab-label">pnpm<\/p>\n<p>Some <em>text<\/em>\.<\/p>\n<\/div>\n<\/div>\n<p>After\.<\/p>/,
  );
  assert.deepEqual(labels(html), ['npm', 'pnpm']);
});

test('a code group makes a tab of each fence, labelled by its title', () => {
  const { html, problems } = render(':::code-group\n```sh title="npm"\nnpm ci\n```\n\n```sh title="yarn"\nyarn\n```\n:::\n');
  assert.deepEqual(problems, []);
  assert.match(html, /^<div class="tabs code-group">/);
  assert.deepEqual(labels(html), ['npm', 'yarn']);
});

test('lines inside code and nested containers neither close a tab set nor start a tab', () => {
  const { html, problems } = render(':::tabs\n== a\n```md\n== not a tab\n:::\n```\n:::note\ninside\n:::\n== b\nB\n:::\n');
  assert.deepEqual(problems, []);
  assert.deepEqual(labels(html), ['a', 'b']);
  assert.match(html, /== not a tab/);
});

test('labels are escaped', () => {
  assert.deepEqual(labels(render(':::tabs\n== <b>x</b>\ny\n:::\n').html), ['&lt;b&gt;x&lt;/b&gt;']);
});

test('an unclosed tab set fails the build with the file and the line it opens on', () => {
  assert.throws(
    () => compile('Intro.\n\n:::tabs\n== a\ntext\n'),
    (error: ContentError) => /en\/pages\/index\.md:7: :::tabs is not closed: end it with a line of ":::"/.test(error.message),
  );
});

test('text before the first label, a set without labels, a bad key and prose in a code group fail the build with their lines', () => {
  assert.throws(
    () => compile(':::tabs\nstray\n== a\nx\n:::\n'),
    (error: ContentError) => /index\.md:6: :::tabs has text before its first "== Label"/.test(error.message),
  );
  assert.throws(
    () => compile(':::tabs\nx\n:::\n'),
    (error: ContentError) => /index\.md:5: :::tabs needs a "== Label" line/.test(error.message),
  );
  assert.throws(
    () => compile(':::tabs key="x y"\n== a\nx\n:::\n'),
    (error: ContentError) => /index\.md:5: :::tabs takes only key=name/.test(error.message),
  );
  assert.throws(
    () => compile(':::code-group\nprose\n:::\n'),
    (error: ContentError) => /index\.md:6: :::code-group holds only fenced code blocks/.test(error.message),
  );
});
