import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Suspense, use } from 'react';
import { isBot } from '../../src/server/bots.ts';
import { renderStream } from '../../src/server/render.ts';
import type { Readable } from 'node:stream';

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
}

const SHELL = { before: '<main>', after: '</main>' };

test('the element streams between the two parts of its shell', async () => {
  const html = await text(await renderStream(<p>hello</p>, SHELL, { waitForAll: false, timeoutMs: 1000, onError: () => {} }));
  assert.equal(html, '<main><p>hello</p></main>');
});

const never = new Promise<string>(() => {});
function Stuck() {
  return <p>{use(never)}</p>;
}

test('a render that never finishes is aborted by the timer and the stream ends', async () => {
  const errors: unknown[] = [];
  const stream = await renderStream(
    <Suspense fallback={<p>loading</p>}>
      <Stuck />
    </Suspense>,
    SHELL,
    { waitForAll: true, timeoutMs: 50, onError: (error) => errors.push(error) },
  );
  const html = await text(stream);
  assert.match(html, /^<main>.*<p>loading<\/p>.*<\/main>$/s, 'the fallback, then the closing part after the aborted render');
  assert.ok(errors.length >= 1, 'the abort is reported');
});

function Broken(): never {
  throw new Error('boom');
}

test('a shell error rejects before any byte, so the caller can still answer 500', async () => {
  await assert.rejects(renderStream(<Broken />, SHELL, { waitForAll: false, timeoutMs: 1000, onError: () => {} }), /boom/);
});

test('crawlers are recognised by User-Agent, browsers are not', () => {
  assert.ok(isBot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
  assert.ok(!isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36'));
  assert.ok(!isBot(undefined));
});
