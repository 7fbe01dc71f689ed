import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/server/content/markdown.ts';
import { loadSite } from '../../../src/server/content/site.ts';
import { loadMessages } from '../../../src/server/content/messages.ts';
import { MARKDOWN_LABELS as LABELS, makeLocales, makePage } from '../../helpers/content.ts';

function render(body: string) {
  return renderMarkdown(body, { host: { link: (href) => href, image: () => undefined }, labels: LABELS, lineOffset: 1 });
}

/** Each line's classes and text, the markup inside a line dropped. */
function lines(html: string): [string, string][] {
  return [...html.matchAll(/<span class="(line[^"]*)">((?:(?!<span class="line)[\s\S])*?)<\/span>(?=\n|<\/code>)/g)].map((match) => [
    match[1]!,
    match[2]!.replace(/<[^>]+>/g, ''),
  ]);
}

function compileWarnings(body: string) {
  const dir = makeLocales({ en: { 'pages/index.md': makePage({}, body) } });
  const warnings: string[] = [];
  loadSite(dir, ['en'], 'en', loadMessages(dir, ['en'], 'en'), { warn: (message) => warnings.push(message) });
  return warnings;
}

test('fenced code is highlighted into colour classes, with no style attribute, left to right, its language named', () => {
  const { html, warnings } = render('```ts\nconst answer: number = 42; // why\n```\n');
  assert.match(
    html,
    /<span class="tk-keyword">const<\/span> answer<span class="tk-keyword">: <\/span><span class="tk-constant">number <\/span>/,
  );
  assert.match(html, /<span class="tk-comment">\/\/ why<\/span>/);
  assert.match(html, /<span class="tk-constant">42<\/span>/);
  assert.doesNotMatch(html, /style=/);
  assert.match(html, /<pre class="code" dir="ltr" translate="no">/);
  assert.match(html, /<span class="code-lang">TypeScript<\/span>/);
  assert.deepEqual(warnings, []);
});

test('the copy button is in the HTML hidden, with its label and announcement in the page language', () => {
  const { html } = render('```sh\nnpm ci\n```\n');
  assert.match(html, /<button type="button" class="code-copy" data-copied="Copied" hidden>Copy code<\/button>/);
});

test('the same code is highlighted the same way every time', () => {
  const code = '```ts\nconst a = 1;\nlet b = "x";\n```\n';
  const first = render(code).html;
  for (let i = 0; i < 3; i++) assert.equal(render(`${code}\n`).html, first);
  assert.match(first, /<span class="tk-keyword">const<\/span> a <span class="tk-keyword">= <\/span><span class="tk-constant">1<\/span>;/);
});

test('fence options: marked lines, a title and line numbers', () => {
  const { html } = render('```js {1,3-4} title="src/app.js" showLineNumbers\na()\nb()\nc()\nd()\ne()\n```\n');
  assert.deepEqual(
    lines(html).map(([classes]) => classes),
    ['line marked', 'line', 'line marked', 'line marked', 'line'],
  );
  assert.match(html, /<div class="code-head"><span class="code-title">src\/app\.js<\/span><span class="code-lang">JavaScript<\/span>/);
  assert.match(html, /<pre class="code line-numbers"/);
});

test('diff lines: a trailing [!code ++] or [!code --] comment marks the line and is removed; in a diff, + and - lines', () => {
  const { html } = render(
    '```ts\nconst a = 1; // [!code --]\nconst a = 2; // [!code ++]\nkeep();\n```\n\n```diff\n--- a\n+++ b\n-old\n+new\n same\n```\n',
  );
  assert.deepEqual(lines(html), [
    ['line remove', 'const a = 1;'],
    ['line add', 'const a = 2;'],
    ['line', 'keep();'],
    ['line', '--- a'],
    ['line', '+++ b'],
    ['line remove', '-old'],
    ['line add', '+new'],
    ['line', ' same'],
  ]);
});

test('an escaped notation [!!code ++] is shown as [!code ++] and marks nothing, so a page can show the notation itself', () => {
  const { html } = render('````md\n```ts\nconst a = 1; // [!!code --]\nconst a = 2; # [!!code ++]\n```\n````\n');
  assert.deepEqual(lines(html), [
    ['line', '```ts'],
    ['line', 'const a = 1; // [!code --]'],
    ['line', 'const a = 2; # [!code ++]'],
    ['line', '```'],
  ]);
  const shown = render('```ts\nconst a = 1; // [!!code --]\n```\n').html;
  assert.deepEqual(lines(shown), [['line', 'const a = 1; // [!code --]']]);
});

test('a title is escaped, and an unknown option is a warning', () => {
  const { html, warnings } = render('```ts title="<b>x</b>" wrap\nx\n```\n');
  assert.match(html, /<span class="code-title">&lt;b&gt;x&lt;\/b&gt;<\/span>/);
  assert.deepEqual(warnings, [{ line: 1, message: 'unknown code fence option "wrap" (known: {1,3-5}, title="…", showLineNumbers)' }]);
});

test('code in an unknown language is plain text, and the build warns with the file and line', () => {
  const warnings = compileWarnings('Intro.\n\n```klingon\n<qapla>\n```\n');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /en\/pages\/index\.md:7: code in "klingon", a language that is not highlighted: shown as plain text$/);
  const { html } = render('```klingon\n<qapla>\n```\n');
  assert.match(html, /<span class="line">&lt;qapla&gt;<\/span>/);
  assert.match(html, /<span class="code-lang">klingon<\/span>/);
});

test('plain text fences are not highlighted and not warned about', () => {
  const { html, warnings } = render('```text\nconst a = 1;\n```\n');
  assert.deepEqual(warnings, []);
  assert.match(html, /<span class="line">const a = 1;<\/span>/);
});

test('a block over the size budget is plain text, with a warning', () => {
  const many = Array.from({ length: 2001 }, (_, i) => `const a${i} = ${i};`).join('\n');
  const long = `const a = "${'x'.repeat(10_001)}";`;
  for (const code of [many, long]) {
    const { html, warnings } = render(`\`\`\`ts\n${code}\n\`\`\`\n`);
    assert.doesNotMatch(html, /tk-keyword/);
    assert.match(warnings[0]!.message, /too large to highlight/);
  }
  const { html } = render(`\`\`\`ts\n${many.split('\n').slice(0, 2000).join('\n')}\n\`\`\`\n`);
  assert.match(html, /tk-keyword/);
});

test('indented code is boxed as plain text, left to right', () => {
  const { html } = render('Text.\n\n    <b>code</b>\n');
  assert.match(html, /<pre class="code" dir="ltr" translate="no"><code><span class="line">&lt;b&gt;code&lt;\/b&gt;<\/span><\/code>/);
  assert.doesNotMatch(html, /code-lang/);
});
