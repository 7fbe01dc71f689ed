import { useIntl } from '../../i18n/context.tsx';
import { HitBody } from '../search/hit.tsx';
import type { ScreenData } from '../types.ts';

/**
 * The results page, `/<locale>/search?q=`: what the server found, rendered like any
 * page (it works without JavaScript; the box in the header holds the query). On a
 * static host the browser finds the results (src/client/local-pages.ts).
 */
export function Search({ data }: { data: Extract<ScreenData, { kind: 'search' }> }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  return (
    <article className="search-page">
      <h1 tabIndex={-1}>{data.query ? t('search.titleWithQuery', { query: data.query }) : t('search.title')}</h1>
      {data.staticHost ? (
        // Only ever seen without JavaScript: with it, the client runs the query in place of this page.
        <noscript>
          <p className="search-empty">
            {t('search.needsScript')} <a href={`/${intl.locale}/docs`}>{t('search.browseDocs')}</a>
          </p>
        </noscript>
      ) : data.query === '' ? (
        <p className="search-empty">{t('search.empty')}</p>
      ) : data.total === 0 ? (
        <p className="search-empty">
          {t('search.noMatch', { query: data.query })} <a href={`/${intl.locale}/docs`}>{t('search.browseDocs')}</a>
        </p>
      ) : (
        <>
          <p className="search-count">
            {t('search.count', { count: data.total })}
            {data.total > data.hits.length && ` ${t('search.more', { shown: data.hits.length })}`}
          </p>
          <ol className="search-results">
            {data.hits.map((hit) => (
              <li key={hit.path}>
                <a href={hit.path} className="search-hit">
                  <HitBody hit={hit} />
                </a>
              </li>
            ))}
          </ol>
        </>
      )}
    </article>
  );
}
