import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/server/config.ts';
import { createApp } from '../../../src/server/http/app.ts';
import { createLogger } from '../../../src/server/http/log.ts';
import { Lifecycle } from '../../../src/server/http/lifecycle.ts';
import { prepareSite } from '../../../src/server/site/prepare-site.ts';
import type { PageData } from '../../../src/routes/types.ts';
import { get } from '../../helpers/http.ts';
import { MESSAGES, makeLocales, makePage } from '../../helpers/content.ts';

/** The real app on a loopback port, with a decider that returns a page whose render throws. */
async function serveBrokenPage(logLines: string[]): Promise<{ server: Server; url: string }> {
  const dir = makeLocales({
    en: { 'pages/index.md': makePage() },
    de: {
      'pages/index.md': makePage(),
      'messages.json': {
        ...MESSAGES,
        'site.name': 'Seite',
        'notFound.title': 'Fehlt',
        'error.title': 'Etwas ist schiefgelaufen',
        'error.body': 'Später noch einmal.',
      },
    },
  });
  const config = loadConfig({ LOCALES_DIR: dir, PORT: '0' });
  const site = await prepareSite(config);
  const good = site.store.find('de', '')!;
  // A docs screen without its sidebar makes the Docs component throw during the shell.
  const broken = { ...good, screen: { kind: 'docs', title: 'x', html: '', previous: null, next: null } } as unknown as PageData;
  const app = createApp({
    config,
    site: { ...site, decide: () => ({ kind: 'page', page: broken }) },
    log: createLogger((line) => logLines.push(line)),
    lifecycle: new Lifecycle(),
  });
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('a render error before the shell answers a localized 500 page without a stack trace, and logs the stack', async () => {
  const logLines: string[] = [];
  const { server, url } = await serveBrokenPage(logLines);
  try {
    const response = await get(url, '/de');
    assert.equal(response.status, 500);
    assert.match(response.headers['content-type'] as string, /text\/html/);
    assert.match(response.body, /Etwas ist schiefgelaufen/);
    assert.match(response.body, /lang="de"/);
    assert.doesNotMatch(response.body, /TypeError|at \w+ \(|\.tsx?:\d+/);
    // The failed page's own headers are gone; the security headers and the request id stay.
    assert.match(response.headers['content-security-policy'] as string, /script-src 'self'/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.ok(response.headers['x-request-id']);
    assert.equal(response.headers.etag, undefined);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.ok(
      logLines.some((line) => line.includes('"stack"')),
      'the stack is logged on the server',
    );
    // The server keeps serving.
    assert.equal((await get(url, '/healthz')).status, 200);
  } finally {
    server.close();
  }
});
