import { useIntl } from '../../i18n/context.tsx';
import type { Marked, SearchHit } from '../types.ts';

/** Text with its matched words in <mark>; React escapes every part. */
export function MarkedText({ parts }: { parts: Marked }) {
  return parts.map((part, i) =>
    part.mark ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move; their index is their identity.
      <mark key={i}>{part.text}</mark>
    ) : (
      part.text
    ),
  );
}

/**
 * What one result shows, on the results page and under the search box alike: the
 * page title, the heading the match is under, the snippet, and the page's language
 * when it is not translated into this locale.
 */
export function HitBody({ hit }: { hit: SearchHit }) {
  const intl = useIntl();
  const lang = hit.fallback?.lang;
  return (
    <>
      <span className="search-hit-title" lang={lang}>
        <MarkedText parts={hit.title} />
      </span>
      {hit.heading && (
        <span className="search-hit-heading" lang={lang}>
          <MarkedText parts={hit.heading} />
        </span>
      )}
      {hit.fallback && (
        <span className="search-hit-language">
          {intl.formatMessage({ id: 'search.untranslated' }, { language: hit.fallback.language })}
        </span>
      )}
      <span className="search-hit-snippet" lang={lang}>
        <MarkedText parts={hit.snippet} />
      </span>
    </>
  );
}
