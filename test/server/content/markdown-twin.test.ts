import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownTwin, markdownTwinBody, SITE_ORIGIN_MARK } from '../../../src/server/content/markdown-twin.ts';
import type { CalloutKind } from '../../../src/server/content/markdown.ts';

// The site's own Markdown syntax, flattened into plain Markdown for a twin.

const LABELS = { callout: (kind: CalloutKind) => kind[0]!.toUpperCase() + kind.slice(1), footnotes: 'Footnotes' };
// The origin goes where llms.ts would put the public URL.
const flat = (body: string, rewritten: Record<string, string> = {}) =>
  markdownTwinBody(body, new Map(Object.entries(rewritten)), LABELS).replaceAll(SITE_ORIGIN_MARK, 'https://site.test');

describe('a twin flattens', () => {
  test("a callout into a quote under its bold title, the kind's word when it has none, and the kind before a title", () => {
    assert.equal(
      flat(':::tip\nUse [the docs](/docs).\n:::\n\nAfter.\n', { '/docs': '/de/docs' }),
      '> **Tip**\n>\n> Use [the docs](https://site.test/de/docs).\n\nAfter.\n',
    );
    assert.equal(flat(':::warning Mind the gap\nText.\n:::\nAfter.\n'), '> **Warning: Mind the gap**\n>\n> Text.\n\nAfter.\n');
  });

  test("GitHub's alerts the same way, the marker gone", () => {
    assert.equal(flat('> [!NOTE]\n> GitHub style.\n'), '> **Note**\n>\n> GitHub style.\n');
    assert.equal(flat('> [!caution] Hot\n> Stove.\n'), '> **Caution: Hot**\n>\n> Stove.\n');
    assert.equal(flat('> A plain quote.\n'), '> A plain quote.\n');
  });

  test('a callout inside a callout, and code inside, quoted to its depth', () => {
    const body = '::::note Outer\nOne.\n\n:::tip\nTwo.\n:::\n\n```sh {1}\nls\n```\n::::\n';
    assert.equal(flat(body), '> **Note: Outer**\n>\n> One.\n>\n> > **Tip**\n> >\n> > Two.\n>\n> ```sh\n> ls\n> ```\n');
  });

  test('tabs into each tab under its bold label', () => {
    const body = ':::tabs key=pkg\n== npm\nRun npm.\n== pnpm\nRun pnpm.\n:::\n';
    assert.equal(flat(body), '**npm**\n\nRun npm.\n\n**pnpm**\n\nRun pnpm.\n');
  });

  test('a code group into its blocks, each under its title, with line marks and options out of the info string', () => {
    const body =
      ':::code-group\n```sh title="npm" {1} showLineNumbers\nnpm install polysite\n```\n```sh title="pnpm"\npnpm add polysite\n```\n:::\n';
    assert.equal(flat(body), '**npm**\n\n```sh\nnpm install polysite\n```\n\n**pnpm**\n\n```sh\npnpm add polysite\n```\n');
  });

  test('footnotes into numbers in order of first reference, their notes a list at the end under "Footnotes"', () => {
    const body =
      'One[^b] and two[^a], `[^a]` in code, [^b] again.\n\n[^a]: About a, see [x](/docs).\n    More of a.\n[^b]: About b.\n\nEnd.\n';
    assert.equal(
      flat(body, { '/docs': '/de/docs' }),
      'One[1] and two[2], `[^a]` in code, [1] again.\n\nEnd.\n\n## Footnotes\n\n1. About b.\n2. About a, see [x](https://site.test/de/docs).\n   More of a.\n',
    );
  });

  test('nothing inside fenced code: containers, links and footnotes stay as written', () => {
    const body = '````md\n:::note\n[a](/docs)[^1]\n> [!NOTE]\n:::\n````\n\n[^1]: Note.\n';
    assert.equal(flat(body, { '/docs': '/de/docs' }), '````md\n:::note\n[a](/docs)[^1]\n> [!NOTE]\n:::\n````\n\n[^1]: Note.\n');
  });
});

test("an image for one theme is its file's asset, with GitHub's fragment kept", () => {
  assert.equal(
    flat('![Dark](./x.png#gh-dark-mode-only)\n', { './x.png': '/assets/x-1.png' }),
    '![Dark](https://site.test/assets/x-1.png#gh-dark-mode-only)\n',
  );
});

describe("a twin's front matter", () => {
  test('title, description, language, canonical URL and last updated, in that order; no date when none is known', () => {
    const front = { title: 'Install: it', description: 'How.', language: 'en', canonical: 'https://example.test/de/docs/install' };
    assert.equal(
      markdownTwin({ ...front, lastUpdated: '2026-01-02T03:04:05Z' }, 'Body.\n'),
      '---\ntitle: "Install: it"\ndescription: How.\nlanguage: en\ncanonical: https://example.test/de/docs/install\nlastUpdated: 2026-01-02T03:04:05Z\n---\n\nBody.\n',
    );
    assert.doesNotMatch(markdownTwin(front, 'Body.\n'), /lastUpdated/);
  });
});

test("links to the site's own pages are absolute, external ones as written, and the author's text cannot forge the origin", () => {
  assert.equal(
    flat('[a](/docs) [b](https://example.org/x) [c](//cdn.example.org/y) \u{E000}/x\n', {
      '/docs': '/de/docs',
      'https://example.org/x': 'https://example.org/x',
      '//cdn.example.org/y': '//cdn.example.org/y',
    }),
    '[a](https://site.test/de/docs) [b](https://example.org/x) [c](//cdn.example.org/y) \u{FFFD}/x\n',
  );
});
