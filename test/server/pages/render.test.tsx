import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Suspense, use } from 'react';
import { isBot } from '../../../src/server/http/bots.ts';
import { type RenderedDocument, renderDocument } from '../../../src/server/pages/render.ts';

async function text(rendered: RenderedDocument): Promise<string> {
  if (Buffer.isBuffer(rendered)) return rendered.toString();
  let out = '';
  for await (const chunk of rendered) out += chunk;
  return out;
}

const SHELL = { before: ['<main>'], after: '</main>' };

test('a page with nothing pending comes back whole, between the two parts of its shell', async () => {
  const rendered = await renderDocument(<p>héllo</p>, SHELL, { waitForAll: false, timeoutMs: 1000, onError: () => {} });
  assert.ok(Buffer.isBuffer(rendered), 'one buffer, not a stream');
  assert.equal(rendered.toString(), '<main><p>héllo</p></main>');
});

test('a long text and many elements are assembled whole, in order, as UTF-8', async () => {
  // React passes long strings through as they are and packs short chunks into its own views.
  const long = 'Grüße, 世界. '.repeat(2000);
  const names = Array.from({ length: 500 }, (_, index) => `item ${index} ü`);
  const rendered = await renderDocument(
    <div>
      <p>{long}</p>
      <ul>
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </div>,
    SHELL,
    { waitForAll: false, timeoutMs: 1000, onError: () => {} },
  );
  assert.ok(Buffer.isBuffer(rendered));
  const expected = `<main><div><p>${long}</p><ul>${names.map((name) => `<li>${name}</li>`).join('')}</ul></div></main>`;
  assert.equal(rendered.toString(), expected);
  assert.equal(rendered.length, Buffer.byteLength(expected));
});

let release: (value: string) => void = () => {};
const later = new Promise<string>((resolve) => (release = resolve));
function Later() {
  return <p>{use(later)}</p>;
}

test('a page still waiting on data streams: the shell at once, the rest when it resolves', async () => {
  const rendered = await renderDocument(
    <Suspense fallback={<p>loading</p>}>
      <Later />
    </Suspense>,
    SHELL,
    { waitForAll: false, timeoutMs: 1000, onError: () => {} },
  );
  assert.ok(!Buffer.isBuffer(rendered), 'a stream, since part of it is pending');
  const first = await new Promise<string>((resolve) => rendered.once('data', (chunk) => resolve(String(chunk))));
  assert.equal(first, '<main>', 'the shell leaves before the data is there');
  release('arrived');
  let rest = '';
  for await (const chunk of rendered) rest += chunk;
  assert.match(rest, /<p>arrived<\/p>.*<\/main>$/s, 'then the content, and the closing part last');
});

const never = new Promise<string>(() => {});
function Stuck() {
  return <p>{use(never)}</p>;
}

// A crawler waits for everything, so it gets the whole document with the fallback; a person's stream just ends.
for (const [who, waitForAll] of [
  ['a crawler gets the fallback, whole', true],
  ["a person's stream ends", false],
] as const) {
  test(`a render that never finishes is aborted by the timer: ${who}`, async () => {
    const errors: unknown[] = [];
    const rendered = await renderDocument(
      <Suspense fallback={<p>loading</p>}>
        <Stuck />
      </Suspense>,
      SHELL,
      { waitForAll, timeoutMs: 50, onError: (error: unknown) => errors.push(error) },
    );
    assert.equal(Buffer.isBuffer(rendered), waitForAll);
    const html = await text(rendered);
    assert.match(html, /^<main>.*<p>loading<\/p>.*<\/main>$/s, 'the fallback, then the closing part after the aborted render');
    assert.ok(errors.length >= 1, 'the abort is reported');
  });
}

function Broken(): never {
  throw new Error('boom');
}

test('a shell error rejects before any byte, so the caller can still answer 500', async () => {
  await assert.rejects(renderDocument(<Broken />, SHELL, { waitForAll: false, timeoutMs: 1000, onError: () => {} }), /boom/);
});

test('crawlers are recognised by User-Agent, browsers are not', () => {
  assert.ok(isBot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
  assert.ok(!isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36'));
  assert.ok(!isBot(undefined));
});
