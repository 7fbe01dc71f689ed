import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/server/content/markdown.ts';
import type { MarkdownHost, MarkdownLabels } from '../../../src/server/content/markdown.ts';
import type { PageImage } from '../../../src/server/content/images.ts';
import { MARKDOWN_LABELS as LABELS } from '../../helpers/content.ts';

// The compiler's constructs one by one, as a page's HTML shows them. The host here
// stands in for the site's (content/site.ts, tested through real files in
// markdown-errors.test.ts and content.test.ts): links as written, images from a table.
const IMAGES: Record<string, PageImage> = {
  './wide.png': {
    src: '/assets/en-pages-wide-0A1B2C3D.png',
    width: 2000,
    height: 1000,
    variants: [640, 1280, 1920].map((width) => ({ src: `/assets/en-pages-wide-0A1B2C3D-${width}.webp`, width })),
  },
  '/images/logo.svg': { src: '/assets/en-images-logo-0A1B2C3D.svg', width: 120, height: 40, variants: [] },
};
const HOST: MarkdownHost = { link: (href) => href, image: (src) => IMAGES[src] };

const ARABIC: MarkdownLabels = {
  ...LABELS,
  callout: (kind) => ({ note: 'ملاحظة', warning: 'تحذير' })[kind as 'note'] ?? kind,
  footnotes: 'الحواشي',
};
const JAPANESE: MarkdownLabels = { ...LABELS, callout: (kind) => ({ note: '注記', tip: 'ヒント' })[kind as 'note'] ?? kind };

function render(body: string, labels = LABELS) {
  return renderMarkdown(body, { host: HOST, labels, lineOffset: 1 });
}

test('a wide raster image gets its size, lazy loading and a WebP srcset', () => {
  const { html, problems: errors } = render('![A wide diagram](./wide.png "The flow")\n');
  assert.deepEqual(errors, []);
  assert.equal(
    html,
    '<p><picture><source type="image/webp" srcset="/assets/en-pages-wide-0A1B2C3D-640.webp 640w, /assets/en-pages-wide-0A1B2C3D-1280.webp 1280w, ' +
      '/assets/en-pages-wide-0A1B2C3D-1920.webp 1920w" sizes="(min-width: 48rem) 46rem, 100vw">' +
      '<img src="/assets/en-pages-wide-0A1B2C3D.png" alt="A wide diagram" title="The flow" width="2000" height="1000" loading="lazy" decoding="async">' +
      '</picture></p>\n',
  );
});

test('an SVG is an img of its own file, never inlined and with no versions', () => {
  const { html } = render('![The logo](/images/logo.svg)\n');
  assert.equal(
    html,
    '<p><img src="/assets/en-images-logo-0A1B2C3D.svg" alt="The logo" width="120" height="40" loading="lazy" decoding="async"></p>\n',
  );
});

test('alt text in Arabic and Japanese is kept and escaped', () => {
  assert.match(render('![مخطط "الطلب"](./wide.png)\n').html, /alt="مخطط &quot;الطلب&quot;"/);
  assert.match(render('![リクエストの流れ](./wide.png)\n').html, /alt="リクエストの流れ"/);
});

test('a :::kind container is an aside named by its title, with a decorative icon', () => {
  const { html, problems: errors } = render(':::tip\nUse **this**.\n:::\n');
  assert.deepEqual(errors, []);
  assert.equal(
    html,
    '<aside class="callout callout-tip" aria-labelledby="callout-1"><p class="callout-title" id="callout-1">' +
      '<span class="callout-icon" aria-hidden="true">✓︎</span>Tip</p>\n<p>Use <strong>this</strong>.</p>\n</aside>\n',
  );
});

test('a container keeps the title its author gives it, escaped', () => {
  assert.match(render(':::warning Before you <deploy>\ntext\n:::\n').html, /id="callout-1">.*<\/span>Before you &lt;deploy&gt;<\/p>/);
});

test('a GitHub alert renders exactly as the container of its kind', () => {
  const alert = render('> [!NOTE]\n> Read this.\n').html;
  const container = render(':::note\nRead this.\n:::\n').html;
  assert.equal(alert, container);
  for (const [marker, kind] of [
    ['TIP', 'tip'],
    ['IMPORTANT', 'important'],
    ['WARNING', 'warning'],
    ['CAUTION', 'caution'],
  ]) {
    assert.match(render(`> [!${marker}]\n> x\n`).html, new RegExp(`^<aside class="callout callout-${kind}"`));
  }
});

test('a quote that is no alert stays a quote', () => {
  assert.equal(render('> [!NOPE] not an alert\n').html, '<blockquote>\n<p>[!NOPE] not an alert</p>\n</blockquote>\n');
});

test('callout titles come from the page language, right-to-left and CJK included', () => {
  assert.match(render(':::note\nنص\n:::\n', ARABIC).html, /<\/span>ملاحظة<\/p>\n<p>نص<\/p>/);
  assert.match(render('> [!NOTE]\n> 本文\n', JAPANESE).html, /<\/span>注記<\/p>\n<p>本文<\/p>/);
});

test('callouts are numbered per page so their names are unique', () => {
  const { html } = render(':::note\na\n:::\n\n> [!TIP]\n> b\n');
  assert.deepEqual(
    [...html.matchAll(/aria-labelledby="([^"]+)"/g)].map((match) => match[1]),
    ['callout-1', 'callout-2'],
  );
});

test('tabs and code-group containers are left to their own rule, never an unknown callout', () => {
  for (const kind of ['tabs', 'code-group']) {
    const { html, problems } = render(`:::${kind}\n== One\nx\n:::\n`);
    assert.deepEqual(
      problems.filter((problem) => /callout/.test(problem.message)),
      [],
    );
    assert.doesNotMatch(html, /class="callout/);
  }
});

test('footnotes link both ways, in a section named in the page language', () => {
  const { html } = render('Text[^1].\n\n[^1]: A note.\n', ARABIC);
  assert.match(html, /<sup class="footnote-ref"><a href="#fn1" id="fnref1">\[1\]<\/a><\/sup>/);
  assert.match(html, /<section class="footnotes" aria-label="الحواشي">\n<ol class="footnotes-list">\n<li id="fn1" class="footnote-item">/);
  assert.match(html, /<a href="#fnref1" class="footnote-backref" aria-label="Back to reference 1">/);
});

test('task list items get read-only checkboxes labelled by their text', () => {
  const { html } = render('- [ ] Write\n- [x] 翻訳する\n- plain\n');
  assert.equal(
    html,
    '<ul class="contains-task-list">\n' +
      '<li class="task-list-item"><input class="task-list-item-checkbox" type="checkbox" id="task-1" disabled> <label for="task-1">Write</label></li>\n' +
      '<li class="task-list-item"><input class="task-list-item-checkbox" type="checkbox" id="task-2" disabled checked> <label for="task-2">翻訳する</label></li>\n' +
      '<li>plain</li>\n</ul>\n',
  );
});

test('a custom heading id replaces the one made from the text, in any script', () => {
  const { html, headings } = render('## Setup {#setup}\n\n## الإعداد {#setup-ar}\n\n## 設定 {#設定}\n');
  assert.deepEqual(headings, [
    { id: 'setup', text: 'Setup', level: 2 },
    { id: 'setup-ar', text: 'الإعداد', level: 2 },
    { id: '設定', text: '設定', level: 2 },
  ]);
  assert.match(html, /<h2 id="setup">Setup<\/h2><a class="heading-anchor" href="#setup"/);
});

test('a made id steps around a custom one', () => {
  const { headings } = render('## Intro\n\n## Other {#intro}\n');
  assert.deepEqual(
    headings.map((heading) => heading.id),
    ['intro-1', 'intro'],
  );
});

test('details, summary, kbd, sup, sub and br are kept; their other attributes go', () => {
  const { html, warnings } = render(
    '<details open onclick="steal()">\n<summary>More</summary>\n\nHidden *text*.\n\n</details>\n\nPress <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup><br>end\n',
  );
  assert.equal(
    html,
    '<details open>\n<summary>More</summary>\n<p>Hidden <em>text</em>.</p>\n</details>\n' +
      '<p>Press <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup><br />end</p>\n',
  );
  assert.deepEqual(warnings, [
    {
      line: 1,
      message: 'raw HTML: the attribute onclick on <details> (removed); allowed are <details>, <summary>, <kbd>, <sup>, <sub>, <br>',
    },
  ]);
});

test('every other tag is shown as written, never as markup, with a warning naming it at its line', () => {
  const { html, warnings } = render(
    'Hi\nthere <img src=x onerror="alert(1)"> and <script>alert(1)</script>\n\n<iframe src="//x"></iframe>\n',
  );
  assert.equal(
    html,
    '<p>Hi\nthere &lt;img src=x onerror=&quot;alert(1)&quot;&gt; and &lt;script&gt;alert(1)&lt;/script&gt;</p>\n' +
      '&lt;iframe src=&quot;//x&quot;&gt;&lt;/iframe&gt;\n',
  );
  assert.deepEqual(
    warnings.map((warning) => `${warning.line}: ${warning.message.split(';')[0]}`),
    [
      '2: raw HTML: <img> (not allowed: shown as text)',
      '2: raw HTML: <script> (not allowed: shown as text)',
      '2: raw HTML: </script> (not allowed: shown as text)',
      '4: raw HTML: <iframe> (not allowed: shown as text)',
      '4: raw HTML: </iframe> (not allowed: shown as text)',
    ],
  );
});

test('no attribute that runs script survives beside allowed tags in one block', () => {
  const { html } = render(
    '<details><summary onmouseover="x()">S</summary><img src=x onerror=y()><a href="javascript:z()">l</a></details>\n',
  );
  assert.doesNotMatch(html, /<img|<a |onmouseover=|onerror="|javascript:z\(\)">/);
  assert.match(html, /^<details><summary>S<\/summary>/);
});

test('inline code is left to right and isolated, so an Arabic sentence keeps its pieces in order', () => {
  const { html } = render('استخدم `{{name}} --flag` هنا.\n');
  assert.equal(html, '<p>استخدم <code dir="ltr">{{name}} --flag</code> هنا.</p>\n');
});
