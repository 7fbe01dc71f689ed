import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { ROOT_DIR } from '../../src/server/config.ts';

// The import rules of docs/architecture.md, as data: which areas of src/ each area
// may import. An area is a folder (`server/http`), and a rule may name single files
// of another area (its entry points) instead of the whole area.

type Rule = { area: string; may: readonly string[] };

const RULES: readonly Rule[] = [
  // Shared by server and browser: nothing of either.
  { area: 'i18n', may: ['routes'] },
  { area: 'routes', may: ['i18n'] },
  { area: 'client', may: ['routes', 'i18n'] },
  // What authors write, compiled: no HTTP, no pages, no start-up.
  { area: 'server/content', may: ['routes', 'i18n'] },
  // The edge: the pipeline only through its middleware and document renderer, the site
  // only as the prepared whole, monitoring only as the server's own reporter.
  {
    area: 'server/http',
    may: [
      'server',
      'routes/bounded-cache.ts',
      'server/pages/page-middleware.ts',
      'server/pages/page-data-route.ts',
      'server/pages/feed-route.ts',
      'server/pages/llms-route.ts',
      'server/pages/page-document.ts',
      'server/site/prepare-site.ts',
      'server/monitoring/server-monitoring.ts',
    ],
  },
  // The page pipeline uses the edge's tools (stored bodies, caches, send, errors) and what start-up made.
  {
    area: 'server/pages',
    may: ['server', 'server/http', 'server/site', 'server/content', 'routes', 'i18n', 'server/monitoring/server-monitoring.ts'],
  },
  // Built at start-up: content, the stores it fills, the stored-body type it serves from, the log and the reporter.
  {
    area: 'server/site',
    may: [
      'server',
      'server/content',
      'server/pages',
      'server/http/stored-body.ts',
      'server/http/log.ts',
      'server/monitoring/server-monitoring.ts',
      'routes',
      'i18n',
    ],
  },
  // Sentry and the relay: config and the log, nothing of the site.
  { area: 'server/monitoring', may: ['server', 'server/http/log.ts'] },
  // The entry point and config wire the stages together.
  { area: 'server', may: ['server/http', 'server/site', 'server/monitoring', 'server/content/errors.ts', 'i18n'] },
  // The static export runs the server's own pipeline, and reads the edge's header tables.
  {
    area: 'export',
    may: [
      'server',
      'server/pages',
      'server/site',
      'server/content',
      'server/http/cache-policy.ts',
      'server/http/security-headers.ts',
      'routes',
      'i18n',
    ],
  },
];

const SRC = join(ROOT_DIR, 'src');

function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'server') return parts.length > 2 ? `server/${parts[1]}` : 'server';
  return parts[0]!;
}

/** Every relative import in src/, as [importing file, imported file], both relative to src/. */
function imports(): [string, string][] {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((file) => /\.tsx?$/.test(file));
  const found: [string, string][] = [];
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      found.push([file, normalize(join(dirname(file), match[1]!))]);
    }
  }
  return found;
}

function breaks(rules: readonly Rule[], edges: readonly [string, string][]): string[] {
  const byArea = new Map(rules.map((rule) => [rule.area, rule.may]));
  const broken: string[] = [];
  for (const [from, to] of edges) {
    const here = areaOf(from);
    const there = areaOf(to);
    if (here === there) continue;
    const may = byArea.get(here);
    if (!may) {
      broken.push(`${from}: its area ${here} has no rule in docs/architecture.md`);
      continue;
    }
    if (to.startsWith('..')) broken.push(`${from} imports ${to}, outside src/`);
    else if (!may.includes(there) && !may.includes(to)) broken.push(`${from} imports ${to}: ${here} may not import ${there}`);
  }
  return broken;
}

test('every import in src/ keeps the rules between areas', () => {
  const edges = imports();
  assert.ok(edges.length > 300, 'the imports are src/’s');
  assert.deepEqual(breaks(RULES, edges), []);
});

test('the rules check finds an import across a rule, and one from an area with no rule', () => {
  assert.deepEqual(breaks(RULES, [['routes/app.tsx', 'server/http/app.ts']]), [
    'routes/app.tsx imports server/http/app.ts: routes may not import server/http',
  ]);
  assert.deepEqual(breaks(RULES, [['server/content/site.ts', 'server/http/log.ts']]), [
    'server/content/site.ts imports server/http/log.ts: server/content may not import server/http',
  ]);
  assert.deepEqual(breaks(RULES, [['server/http/app.ts', 'server/pages/decide.ts']]), [
    'server/http/app.ts imports server/pages/decide.ts: server/http may not import server/pages',
  ]);
  assert.deepEqual(breaks(RULES, [['server/http/app.ts', 'server/pages/page-middleware.ts']]), []);
  assert.deepEqual(breaks(RULES, [['newarea/x.ts', 'routes/app.tsx']]), [
    'newarea/x.ts: its area newarea has no rule in docs/architecture.md',
  ]);
});

test('docs/architecture.md names every area the rules know', () => {
  const doc = readFileSync(join(ROOT_DIR, 'docs', 'architecture.md'), 'utf8');
  for (const { area } of RULES) assert.match(doc, new RegExp(`\`src/${area}/?\``), area);
});
