import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import { CopyPage } from '../copy-page.tsx';
import { READ_BACK } from '../read-back.ts';
import type { Heading, ScreenData } from '../types.ts';
import { Listing } from './docs-listing.tsx';

/**
 * A docs page. The docs tree and "On this page" are <details> disclosures, so
 * they work without JavaScript: closed on a phone, where the page comes first,
 * and shown open beside the text on a wide screen by the stylesheet alone, so
 * server and browser render the same markup whatever the screen.
 */
export function Docs({ data, path, lang }: { data: Extract<ScreenData, { kind: 'docs' }>; path: string; lang: string | undefined }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <div className="docs">
      {/* Keyed by page: a menu opened to pick a page is closed on the page picked. */}
      <details className="docs-menu" key={path}>
        <summary>{t('docs.menu')}</summary>
        <nav
          className="docs-sidebar"
          aria-label={t('docs.sidebar')}
          {...{ [READ_BACK.docsSidebar]: '' }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: written by the server, every title and path escaped (src/server/pages/docs-tree.ts).
          dangerouslySetInnerHTML={{ __html: data.sidebar }}
        />
      </details>
      <article className={data.toc.length > 0 ? 'docs-article with-toc' : 'docs-article'} lang={lang}>
        <h1 tabIndex={-1}>{data.title}</h1>
        <CopyPage path={path} />
        {data.toc.length > 0 && (
          // In a fallback page the article is in another language than these words; the headings are in the article's.
          <details className="toc" key={path} lang={lang && intl.locale}>
            <summary>{t('docs.onThisPage')}</summary>
            <nav aria-label={t('docs.onThisPage')}>
              <Contents headings={data.toc} lang={lang} />
            </nav>
          </details>
        )}
        <Content html={data.html} />
        {data.listing && (
          <Listing groups={data.listing} key={path} locale={intl.locale} label={t('docs.listing')} filterLabel={t('docs.filter')} />
        )}
        {(data.previous || data.next) && (
          <div className="pager">
            {data.previous && (
              <a rel="prev" href={data.previous.path}>
                {intl.formatMessage({ id: 'docs.previous' }, { title: data.previous.title })}
              </a>
            )}
            {data.next && (
              <a rel="next" href={data.next.path}>
                {intl.formatMessage({ id: 'docs.next' }, { title: data.next.title })}
              </a>
            )}
          </div>
        )}
      </article>
    </div>
  );
}

// Contents is read back by the browser (read-back.ts: readToc) through the READ_BACK
// attributes it writes: keep them on its lists and links.
/** The headings as a nested list: each deeper heading under the one before it. */
function Contents({ headings, lang }: { headings: Heading[]; lang?: string | undefined }) {
  const top = Math.min(...headings.map((heading) => heading.level));
  const sections: { heading: Heading; children: Heading[] }[] = [];
  for (const heading of headings) {
    const last = sections.at(-1);
    if (heading.level > top && last) last.children.push(heading);
    else sections.push({ heading, children: [] });
  }
  return (
    <ol lang={lang} {...{ [READ_BACK.contents]: '' }}>
      {sections.map(({ heading, children }) => (
        <li key={heading.id}>
          <a href={`#${heading.id}`} {...{ [READ_BACK.entry]: '' }}>
            {heading.text}
          </a>
          {children.length > 0 && <Contents headings={children} />}
        </li>
      ))}
    </ol>
  );
}
