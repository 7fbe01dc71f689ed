import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/server/content/markdown.ts';
import { MARKDOWN_LABELS as LABELS } from '../../helpers/content.ts';

function render(body: string, labels = LABELS) {
  return renderMarkdown(body, {
    host: { link: (href) => `/en${href === '/' ? '' : href}`, image: () => undefined },
    labels,
    lineOffset: 0,
  });
}

/** The opening tags of every scrolling box, in order. */
function boxes(html: string): string[] {
  return [...html.matchAll(/<div class="scroll-box[^>]*>/g)].map((match) => match[0]);
}

test('a table scrolls in its own focusable region, named and numbered', () => {
  const { html } = render('| a | b |\n|---|---|\n| 1 | 2 |\n\ntext\n\n| c |\n|---|\n| 3 |\n');
  assert.deepEqual(boxes(html), [
    '<div class="scroll-box table-box" role="region" tabindex="0" aria-label="Table 1">',
    '<div class="scroll-box table-box" role="region" tabindex="0" aria-label="Table 2">',
  ]);
  assert.match(html, /aria-label="Table 1"><table>\n<thead>[\s\S]*<\/table><\/div>\n<p>text<\/p>/);
});

test('fenced and indented code scroll in their own focusable region, numbered apart from tables, language kept', () => {
  const { html } = render('```sh\necho "<hi>"\n```\n\n| a |\n|---|\n| 1 |\n\n    indented code\n');
  assert.deepEqual(boxes(html), [
    '<div class="scroll-box code-box" role="region" tabindex="0" aria-label="Code 1">',
    '<div class="scroll-box table-box" role="region" tabindex="0" aria-label="Table 1">',
    '<div class="scroll-box code-box" role="region" tabindex="0" aria-label="Code 2">',
  ]);
  assert.match(
    html,
    /aria-label="Code 1"><pre class="code" dir="ltr" translate="no"><code><span class="line">.*echo.*&quot;&lt;hi&gt;&quot;.*<\/span><\/code><\/pre><\/div>/,
  );
  assert.match(html, /<span class="code-lang">Shell<\/span>/);
  assert.match(
    html,
    /aria-label="Code 2"><pre class="code" dir="ltr" translate="no"><code><span class="line">indented code<\/span><\/code><\/pre><\/div>/,
  );
});

test('numbering starts again on every page', () => {
  const first = render('```\na\n```\n');
  const second = render('```\nb\n```\n');
  assert.deepEqual(boxes(first.html), boxes(second.html));
});

test('headings are listed in order with their id, level and plain text', () => {
  const { headings } = render('## Install `npm` **now**\n\ntext\n\n### Fish &amp; chips\n\n## Install `npm` now\n\n#### Deep\n');
  assert.deepEqual(headings, [
    { id: 'install-npm-now', text: 'Install npm now', level: 2 },
    { id: 'fish-amp-chips', text: 'Fish & chips', level: 3 },
    { id: 'install-npm-now-1', text: 'Install npm now', level: 2 },
    { id: 'deep', text: 'Deep', level: 4 },
  ]);
});

test('headings in any script keep their letters in the id', () => {
  const { headings } = render('## التثبيت والبناء\n\n## 前提条件\n');
  assert.deepEqual(
    headings.map((heading) => heading.id),
    ['التثبيت-والبناء', '前提条件'],
  );
});

test('every heading has a visible anchor link beside it, so its own text stays the heading alone', () => {
  const { html } = render('## Check that it works\n');
  assert.equal(
    html,
    '<div class="heading"><h2 id="check-that-it-works">Check that it works</h2>' +
      '<a class="heading-anchor" href="#check-that-it-works" aria-label="Link to Check that it works">#</a></div>\n',
  );
});

test('labels and heading text are escaped in attributes', () => {
  const labels = { ...LABELS, table: () => 'A "table" <b>' };
  const { html } = render('## Say "hi" <b>\n\n| a |\n|---|\n| 1 |\n', labels);
  assert.match(html, /aria-label="Link to Say &quot;hi&quot; &lt;b&gt;"/);
  assert.match(html, /aria-label="A &quot;table&quot; &lt;b&gt;"/);
  assert.doesNotMatch(html, /<b>/);
});
