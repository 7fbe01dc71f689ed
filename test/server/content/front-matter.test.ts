import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frontMatterLine, oneEditApart, splitFrontMatter } from '../../../src/server/content/front-matter.ts';

// Every front matter mistake is reported at its own line of the Markdown file,
// from the YAML library's positions, and says what to do.

const failure = (text: string) => {
  try {
    splitFrontMatter(text, 'locales/en/pages/about.md');
  } catch (error) {
    return (error as Error).message;
  }
  return assert.fail('the front matter was accepted');
};

test('an unterminated quote is reported where it opens, with the line as a snippet', () => {
  assert.equal(
    failure('---\ntitle: "About us\ndescription: Who we are.\norder: 2\n---\nText.\n'),
    [
      'locales/en/pages/about.md:2:8: front matter is not valid YAML: the " quote opened here is never closed',
      '  2 | title: "About us',
      '    |        ^',
    ].join('\n'),
  );
});

test('an unclosed [ is reported where it opens, not at the closing ---', () => {
  assert.equal(
    failure('---\ntitle: T\ndescription: [one, two\n---\n'),
    [
      'locales/en/pages/about.md:3:14: front matter is not valid YAML: the [ opened here is never closed by a ]',
      '  3 | description: [one, two',
      '    |              ^',
    ].join('\n'),
  );
});

test('a key written twice is reported at the second one', () => {
  assert.equal(
    failure('---\ntitle: T\ndescription: D\ntitle: U\n---\n'),
    ['locales/en/pages/about.md:4:1: front matter is not valid YAML: Map keys must be unique', '  4 | title: U', '    | ^'].join('\n'),
  );
});

test('an unknown key is reported at its own line, with "did you mean" when one edit away from a known key', () => {
  assert.equal(
    failure('---\ntitle: T\norder: 3\nnav: Guides\ndescripton: D\n---\n'),
    'locales/en/pages/about.md:5: front matter has an unknown key "descripton"; did you mean "description"? (known: title, description, order, nav, date, updated, author, slug, image, draft, unlisted, keywords)',
  );
  assert.equal(
    failure('---\ntitle: T\ndescription: D\ncolour: red\n---\n'),
    'locales/en/pages/about.md:4: front matter has an unknown key "colour" (known: title, description, order, nav, date, updated, author, slug, image, draft, unlisted, keywords)',
  );
});

test('keywords are a list of words or phrases, trimmed; anything else is reported at their line', () => {
  const { data } = splitFrontMatter('---\ntitle: ls\ndescription: D\nkeywords: [list files, " directory contents "]\n---\n', 'a.md');
  assert.deepEqual(data.keywords, ['list files', 'directory contents']);
  for (const value of [
    'list files',
    '[list, ""]',
    '[1, 2]',
    `[${Array.from({ length: 33 }, (_, i) => `k${i}`).join(', ')}]`,
    `[${'x'.repeat(101)}]`,
  ])
    assert.match(
      failure(`---\ntitle: T\ndescription: D\nkeywords: ${value}\n---\n`),
      /^locales\/en\/pages\/about\.md:4: front matter "keywords" must be a list of at most 32 words or phrases/,
      value,
    );
});

test('a value of the wrong kind is reported at its key’s line; a missing key at the front matter’s first line', () => {
  assert.equal(
    failure('---\ntitle: T\ndescription: D\n\norder: first\n---\n'),
    'locales/en/pages/about.md:5: front matter "order" must be a whole number',
  );
  assert.equal(
    failure('---\norder: 1\ntitle: T\n---\n'),
    'locales/en/pages/about.md:2: front matter needs "description" as non-empty text',
  );
});

test('one edit apart: an insertion, a deletion, a substitution or a swap of neighbours', () => {
  for (const [typo, key] of [
    ['descripton', 'description'],
    ['titles', 'title'],
    ['dat', 'date'],
    ['slog', 'slug'],
    ['titel', 'title'],
  ]) {
    assert.ok(oneEditApart(typo!, key!), `${typo} -> ${key}`);
  }
  for (const [word, key] of [
    ['description', 'description'],
    ['colour', 'order'],
    ['tilte2', 'title'],
  ]) {
    assert.ok(!oneEditApart(word!, key!), `${word} -> ${key}`);
  }
});

test('the body’s first line and each key’s line come from the YAML positions', () => {
  const text = '---\ntitle: T\n# a comment\ndescription: >\n  Folded\n  text.\nslug: ueber-uns\n---\nBody.\n';
  const { bodyLine, keyLines, data } = splitFrontMatter(text, 'x.md');
  assert.equal(bodyLine, 9);
  assert.deepEqual(keyLines, { title: 2, description: 4, slug: 7 });
  assert.equal(data.description, 'Folded text.');
  assert.equal(frontMatterLine(text, 'slug'), 7);
  assert.equal(frontMatterLine(text, 'image'), 2, 'absent: the front matter’s first line');
});

test('front matter of quoted texts, whole numbers and true or false reads as the YAML parser reads it', () => {
  const text = '---\ntitle: "Über # uns "\ndescription: "日本語 D"\norder: -12\ndraft: true\nunlisted: false\n---\nBody.\n';
  const { bodyLine, keyLines, data } = splitFrontMatter(text, 'x.md');
  assert.equal(bodyLine, 8);
  assert.deepEqual(keyLines, { title: 2, description: 3, order: 4, draft: 5, unlisted: 6 });
  assert.deepEqual(data, { title: 'Über # uns', description: '日本語 D', order: -12, draft: true });
  // An escape, a leading zero, a key written twice or an unknown key is the parser's to read or report.
  assert.equal(splitFrontMatter('---\ntitle: "a\\tb"\ndescription: "D"\n---\n', 'x.md').data.title, 'a\tb');
  assert.equal(splitFrontMatter('---\ntitle: "T"\ndescription: "D"\norder: 007\n---\n', 'x.md').data.order, 7);
  assert.match(
    failure('---\ntitle: "T"\ndescription: "D"\ntitle: "U"\n---\n'),
    /:4:1: front matter is not valid YAML: Map keys must be unique/,
  );
  assert.match(
    failure('---\ntitle: "T"\ndescription: "D"\ntitel: "U"\n---\n'),
    /:4: front matter has an unknown key "titel"; did you mean "title"\?/,
  );
  assert.match(failure('---\ntitle: ""\ndescription: "D"\n---\n'), /:2: front matter needs "title" as non-empty text/);
});
