import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dataUrl } from '../../../src/routes/page-data.ts';
import { LISTING_PAGE_SIZE } from '../../../src/server/pages/screen-data.ts';
import { serveApp } from '../../helpers/app.ts';
import { bodyElements, headElements, metaValues } from '../../helpers/html.ts';
import { get } from '../../helpers/http.ts';
import { longSectionRoot, MID_SECTION } from '../../helpers/long-section.ts';

// A section of 600 pages served as a reader gets it: its own page lists the first 250,
// and the rest go on at `<section>/~/2` and `/~/3`, in every locale and docs version,
// each numbered page its own canonical, `noindex`, and linked to its neighbours.

const COUNT = 600;
const PAGES = Math.ceil(COUNT / LISTING_PAGE_SIZE);

let app: Awaited<ReturnType<typeof serveApp>>;
before(async () => {
  app = await serveApp({ LOCALES_DIR: longSectionRoot(COUNT).localesDir, LOCALES: 'en,de,ar', DEFAULT_LOCALE: 'en' });
});
after(() => app.close());

/** A served page's head, parsed: its title, canonical, robots and hreflang links. */
async function page(path: string) {
  const answer = await get(app.url, path);
  assert.equal(answer.status, 200, `${path}: ${answer.status} ${answer.headers.location ?? ''}`);
  const head = headElements(answer.body);
  return {
    title: head.find((element) => element.tag === 'title')?.text ?? '',
    canonical: head.find((element) => element.tag === 'link' && element.attributes.rel === 'canonical')?.attributes.href,
    robots: metaValues(head, 'robots'),
    alternates: head.filter((element) => element.tag === 'link' && element.attributes.hreflang),
    h1: bodyElements(answer.body, (element) => element.tag === 'h1')[0]?.text,
  };
}

/** The listing's entries of a page: links inside `.docs-listing`. */
async function listed(path: string): Promise<string[]> {
  const { body } = await get(app.url, path);
  const start = body.indexOf('class="docs-listing"');
  if (start === -1) return [];
  const listing = body.slice(start, body.indexOf('</section>', start));
  return [...listing.matchAll(/<li><a href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The page's previous and next links (rel="prev", rel="next"): path and text. */
async function pagerOf(path: string): Promise<{ prev?: [string, string]; next?: [string, string] }> {
  const { body } = await get(app.url, path);
  const links = bodyElements(body, (element) => element.tag === 'a' && /^(prev|next)$/.test(element.attributes.rel ?? ''));
  return Object.fromEntries(links.map((a) => [a.attributes.rel!, [a.attributes.href!, a.text]]));
}

describe('a section of 600 pages', () => {
  test('its own page lists the first 250 and leads on to page 2', async () => {
    const first = await page('/en/docs/big');
    assert.equal(first.canonical, 'https://example.test/en/docs/big');
    assert.deepEqual(first.robots, [], 'page 1 is the section’s page: indexed');
    assert.equal(first.h1, 'Big');
    assert.equal((await listed('/en/docs/big')).length, LISTING_PAGE_SIZE);
    assert.deepEqual((await pagerOf('/en/docs/big')).next, ['/en/docs/big/~/2', `Next: Big, page 2 of ${PAGES}`]);
  });

  test('each numbered page is its own canonical, noindex, titled with its number and linked to its neighbours', async () => {
    const second = await page('/en/docs/big/~/2');
    assert.equal(second.canonical, 'https://example.test/en/docs/big/~/2');
    assert.deepEqual(second.robots, ['noindex']);
    assert.deepEqual(second.alternates, [], 'no hreflang cluster for a noindex page');
    assert.match(second.title, /^Big, page 2 of 3 · /);
    assert.equal(second.h1, 'Big, page 2 of 3');
    assert.deepEqual(await pagerOf('/en/docs/big/~/2'), {
      prev: ['/en/docs/big', 'Previous: Big, page 1 of 3'],
      next: ['/en/docs/big/~/3', 'Next: Big, page 3 of 3'],
    });
    const last = await pagerOf('/en/docs/big/~/3');
    assert.deepEqual(last.prev, ['/en/docs/big/~/2', 'Previous: Big, page 2 of 3']);
    assert.notEqual(last.next?.[0], undefined);
    assert.ok(!last.next![0].includes('/~/'), `after the last page, what follows the section: ${last.next![0]}`);
    assert.equal((await listed('/en/docs/big/~/3')).length, COUNT - 2 * LISTING_PAGE_SIZE);
  });

  test('the pages together list every page of the section once', async () => {
    const all = [];
    for (let n = 1; n <= PAGES; n++) all.push(...(await listed(n === 1 ? '/en/docs/big' : `/en/docs/big/~/${n}`)));
    assert.equal(all.length, COUNT);
    assert.equal(new Set(all).size, COUNT);
    for (let n = 0; n < COUNT; n++) assert.ok(all.includes(`/en/docs/big/tool${n}`), `tool${n}`);
  });
});

describe('in every locale and docs version', () => {
  const cases = [
    { path: '/de/docs/gross/~/2', h1: 'Groß, Seite 2 von 3', prev: ['/de/docs/gross', 'Zurück: Groß, Seite 1 von 3'] },
    { path: '/ar/docs/big/~/3', h1: 'Big، الصفحة 3 من 3', prev: ['/ar/docs/big/~/2', 'السابق: Big، الصفحة 2 من 3'] },
    { path: '/en/docs/1.0/big/~/2', h1: 'Big, page 2 of 3', prev: ['/en/docs/1.0/big', 'Previous: Big, page 1 of 3'] },
    { path: '/de/docs/1.0/gross/~/3', h1: 'Groß, Seite 3 von 3', prev: ['/de/docs/1.0/gross/~/2', 'Zurück: Groß, Seite 2 von 3'] },
  ];
  for (const { path, h1, prev } of cases) {
    test(`${path} is served, its own canonical, noindex, titled and linked in the page's language`, async () => {
      const served = await page(path);
      assert.equal(served.canonical, `https://example.test${path}`);
      assert.deepEqual(served.robots, ['noindex']);
      assert.equal(served.h1, h1);
      assert.deepEqual((await pagerOf(path)).prev, prev);
      assert.ok((await listed(path)).length > 0);
    });
  }

  test('a fallback locale lists the default locale’s titles marked as such, and a translation under its own title', async () => {
    const german = (await listed('/de/docs/gross')).concat(await listed('/de/docs/gross/~/2'), await listed('/de/docs/gross/~/3'));
    assert.equal(german.length, COUNT);
    const { body } = await get(app.url, '/de/docs/gross/~/3');
    assert.match(body, /<a href="\/de\/docs\/gross\/tool7">werkzeug7<\/a>/, 'sorted under W, on the last page');
  });

  test('the language switcher of a numbered page leads to the same page in each locale', async () => {
    const { body } = await get(app.url, '/en/docs/big/~/2');
    for (const path of ['/de/docs/gross/~/2', '/ar/docs/big/~/2']) assert.ok(body.includes(`href="${path}"`), path);
  });
});

describe('paths that are not a numbered page', () => {
  test('/~/1 is a 308 to the section’s own URL, with the query kept', async () => {
    for (const [path, location] of [
      ['/en/docs/big/~/1', '/en/docs/big'],
      ['/de/docs/gross/~/1?x=1', '/de/docs/gross?x=1'],
      ['/en/docs/1.0/big/~/1', '/en/docs/1.0/big'],
    ]) {
      const answer = await get(app.url, path!);
      assert.equal(answer.status, 308, path);
      assert.equal(answer.headers.location, location, path);
    }
  });

  test('another spelling of a numbered page’s path is a 308 to its one path', async () => {
    for (const [path, location] of [
      ['/de/docs/big/~/2', '/de/docs/gross/~/2'],
      ['/en/docs/big/%7E/2', '/en/docs/big/~/2'],
      ['/EN/docs/big/~/2', '/en/docs/big/~/2'],
      ['/en/docs/big/~/2/', '/en/docs/big/~/2'],
    ]) {
      const answer = await get(app.url, path!);
      assert.equal(answer.status, 308, path);
      assert.equal(answer.headers.location, location, path);
    }
  });

  test('any other number, a page past the last, or a section without one, is the locale’s 404', async () => {
    const missing = [
      '/de/docs/gross/~/0',
      '/de/docs/gross/~/02',
      '/de/docs/gross/~/4',
      '/de/docs/gross/~/999999',
      '/de/docs/gross/~/1000000',
      '/de/docs/gross/~/99999999999999999999999',
      '/de/docs/gross/~/-1',
      '/de/docs/gross/~/+2',
      '/de/docs/gross/~/2.0',
      '/de/docs/gross/~/1e1',
      '/de/docs/gross/~/%EF%BC%92', // a full-width 2
      '/de/docs/gross/~/x',
      '/de/docs/gross/~',
      '/de/docs/gross/~/2/3',
      '/de/docs/gross/~/~/2',
      '/de/docs/mid/~/2',
      '/de/docs/mid/~/1',
      '/de/docs/nothing/~/2',
      '/de/docs/gross/tool3/~/2',
      '/de/~/2',
      '/de/docs/9.9/gross/~/2',
    ];
    for (const path of missing) {
      const answer = await get(app.url, path);
      assert.equal(answer.status, 404, `${path}: ${answer.status} ${answer.headers.location ?? ''}`);
      assert.match(answer.body, /<html lang="de"/, path);
    }
  });

  test('what a numbered path carries goes back escaped', async () => {
    const answer = await get(app.url, '/en/docs/big/~/%3Cscript%3E');
    assert.equal(answer.status, 404);
    assert.match(answer.body, /\/en\/docs\/big\/~\/&lt;script&gt;/, 'the path is named, escaped');
    assert.ok(!answer.body.includes('~/<script>'), 'never raw');
  });
});

describe('a section shorter than a listing page', () => {
  test('its page lists all its pages, with no numbered pages', async () => {
    assert.equal((await listed('/en/docs/mid')).length, MID_SECTION);
    assert.ok(!(await get(app.url, '/en/docs/mid')).body.includes('/~/'));
    assert.equal((await page('/en/docs/mid')).h1, 'Mid');
  });
});

describe('page data and the sitemap', () => {
  test('a numbered page’s data is answered as its document is, and /~/1 names the section', async () => {
    const { build } = app.site.manifest;
    const data = await get(app.url, dataUrl(build, '/de/docs/gross/~/2'));
    assert.equal(data.status, 200);
    const { page: pageData } = JSON.parse(data.body);
    assert.equal(pageData.path, '/de/docs/gross/~/2');
    assert.deepEqual(pageData.screen.listingPager, { page: 2, pages: PAGES });
    assert.equal(pageData.screen.previous.path, '/de/docs/gross');
    assert.equal(pageData.screen.listing.flatMap((group: { links: unknown[] }) => group.links).length, LISTING_PAGE_SIZE);
    const first = await get(app.url, dataUrl(build, '/de/docs/gross/~/1'));
    assert.deepEqual(JSON.parse(first.body), { redirect: '/de/docs/gross' });
    assert.equal((await get(app.url, dataUrl(build, '/de/docs/gross/~/4'))).status, 404);
  });

  test('a numbered page answers 304 to its own validator', async () => {
    const first = await get(app.url, '/en/docs/big/~/2');
    const again = await get(app.url, '/en/docs/big/~/2', { 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
  });

  test('the sitemap lists the section’s page and none of its numbered pages', async () => {
    const sitemap = await get(app.url, '/sitemap.xml');
    assert.match(sitemap.body, /<loc>https:\/\/example\.test\/en\/docs\/big<\/loc>/);
    assert.ok(!sitemap.body.includes('/~/'));
  });
});
