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

/** A served page, parsed: its head, its listing's links, its pager's links and text. */
async function page(path: string) {
  const answer = await get(app.url, path);
  assert.equal(answer.status, 200, `${path}: ${answer.status} ${answer.headers.location ?? ''}`);
  const head = headElements(answer.body);
  const inListing = (element: { attributes: Record<string, string> }) => element.attributes.href !== undefined;
  const listing = bodyElements(answer.body.slice(answer.body.indexOf('class="docs-listing"')), (element) => element.tag === 'ul').length;
  const pager = bodyElements(answer.body, (element) => element.tag === 'nav' && element.attributes.class === 'listing-pager')[0];
  const links = bodyElements(answer.body, (element) => element.tag === 'a' && inListing(element)).map((a) => a.attributes.href!);
  return {
    answer,
    title: head.find((element) => element.tag === 'title')?.text ?? '',
    canonical: head.find((element) => element.tag === 'link' && element.attributes.rel === 'canonical')?.attributes.href,
    robots: metaValues(head, 'robots'),
    alternates: head.filter((element) => element.tag === 'link' && element.attributes.hreflang),
    pager: pager?.text ?? null,
    pagerLinks: bodyElements(answer.body, (element) => element.tag === 'a')
      .filter((a) => answer.body.includes(`class="listing-pager"`))
      .map((a) => a.attributes.href!)
      .filter((href) => /\/~\/\d+$|\/(big|gross)$/.test(href)),
    tools: new Set(links.filter((href) => /\/docs\/(1\.0\/)?(big|gross)\/tool\d+$/.test(href))),
    lists: listing,
  };
}

/** The listing's entries of a page: links to the section's pages inside `.docs-listing`. */
async function listed(path: string): Promise<string[]> {
  const { body } = await get(app.url, path);
  const listing = body.slice(body.indexOf('class="docs-listing"'), body.indexOf('</section>', body.indexOf('class="docs-listing"')));
  return [...listing.matchAll(/<li><a href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The pager's previous and next links, and its text. */
async function pagerOf(path: string): Promise<{ links: string[]; text: string } | null> {
  const { body } = await get(app.url, path);
  const [pager] = bodyElements(body, (element) => element.tag === 'nav' && element.attributes.class === 'listing-pager');
  if (!pager) return null;
  const start = body.indexOf('class="listing-pager"');
  const links = [...body.slice(start, body.indexOf('</nav>', start)).matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);
  return { links, text: pager.text };
}

describe('a section of 600 pages', () => {
  test('its own page lists the first 250 and says it is page 1 of 3, with the next page linked', async () => {
    const first = await page('/en/docs/big');
    assert.equal(first.canonical, 'https://example.test/en/docs/big');
    assert.deepEqual(first.robots, [], 'page 1 is the section’s page: indexed');
    assert.equal((await listed('/en/docs/big')).length, LISTING_PAGE_SIZE);
    assert.deepEqual(await pagerOf('/en/docs/big'), { links: ['/en/docs/big/~/2'], text: `Page 1 of ${PAGES}` });
  });

  test('each numbered page is its own canonical, noindex, titled with its number and linked to its neighbours', async () => {
    const second = await page('/en/docs/big/~/2');
    assert.equal(second.canonical, 'https://example.test/en/docs/big/~/2');
    assert.deepEqual(second.robots, ['noindex']);
    assert.deepEqual(second.alternates, [], 'no hreflang cluster for a noindex page');
    assert.match(second.title, /^Big, page 2 of 3 · /);
    assert.deepEqual(await pagerOf('/en/docs/big/~/2'), {
      links: ['/en/docs/big', '/en/docs/big/~/3'],
      text: 'Previous pagePage 2 of 3Next page',
    });
    assert.deepEqual(await pagerOf('/en/docs/big/~/3'), { links: ['/en/docs/big/~/2'], text: 'Previous pagePage 3 of 3' });
    assert.equal((await listed('/en/docs/big/~/3')).length, COUNT - 2 * LISTING_PAGE_SIZE);
  });

  test('the pages together list every page of the section once', async () => {
    const all = [];
    for (let n = 1; n <= PAGES; n++) all.push(...(await listed(n === 1 ? '/en/docs/big' : `/en/docs/big/~/${n}`)));
    assert.equal(all.length, COUNT);
    assert.equal(new Set(all).size, COUNT);
    for (let n = 0; n < COUNT; n++) assert.ok(all.includes(`/en/docs/big/tool${n}`), `tool${n}`);
  });

  test('the initials bar names every initial of the whole listing, on the page it starts on', async () => {
    // Titles `tool0`..`tool599` all start with T; page 3 links T to page 1, where it starts.
    const { body } = await get(app.url, '/en/docs/big/~/3');
    assert.match(body, /<p class="docs-initials"><a href="#initial-T">T<\/a><\/p>/, 'T goes on here: its heading is on this page');
  });
});

describe('in every locale and docs version', () => {
  const cases = [
    { path: '/de/docs/gross/~/2', pager: 'Seite 2 von 3', canonical: 'https://example.test/de/docs/gross/~/2' },
    { path: '/ar/docs/big/~/3', pager: 'الصفحة 3 من 3', canonical: 'https://example.test/ar/docs/big/~/3' },
    { path: '/en/docs/1.0/big/~/2', pager: 'Page 2 of 3', canonical: 'https://example.test/en/docs/1.0/big/~/2' },
    { path: '/de/docs/1.0/gross/~/3', pager: 'Seite 3 von 3', canonical: 'https://example.test/de/docs/1.0/gross/~/3' },
  ];
  for (const { path, pager, canonical } of cases) {
    test(`${path} is served, its own canonical, noindex, with its pager in the page's language`, async () => {
      const served = await page(path);
      assert.equal(served.canonical, canonical);
      assert.deepEqual(served.robots, ['noindex']);
      assert.ok((await pagerOf(path))!.text.includes(pager), (await pagerOf(path))!.text);
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
    assert.ok(!answer.body.includes('<script>'), 'the path is not reflected raw');
  });
});

describe('a section shorter than a listing page', () => {
  test('its page lists all its pages, with no pager and no numbered pages', async () => {
    assert.equal((await listed('/en/docs/mid')).length, MID_SECTION);
    assert.equal(await pagerOf('/en/docs/mid'), null);
    assert.ok(!(await get(app.url, '/en/docs/mid')).body.includes('/~/'));
  });
});

describe('page data and the sitemap', () => {
  test('a numbered page’s data is answered as its document is, and /~/1 names the section', async () => {
    const { build } = app.site.manifest;
    const data = await get(app.url, dataUrl(build, '/de/docs/gross/~/2'));
    assert.equal(data.status, 200);
    const { page: pageData } = JSON.parse(data.body);
    assert.equal(pageData.path, '/de/docs/gross/~/2');
    assert.deepEqual(pageData.screen.listingPager.previous, '/de/docs/gross');
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
