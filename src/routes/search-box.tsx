import { createContext, type KeyboardEvent, useContext, useId, useRef, useState } from 'react';
import { useIntl } from '../i18n/context.tsx';
import type { SearchResults } from './search/engine.ts';
import { HitBody } from './search/hit.tsx';
import { MAX_QUERY_LENGTH, searchPath, searchScope, VERSION_PARAM } from './search/query.ts';
import type { PageData } from './types.ts';
import { searchVersionOf } from './page-data.ts';

/** Answers a query as the visitor types; rejects when aborted by the next keystroke. */
export type Searcher = (query: string, signal: AbortSignal) => Promise<SearchResults>;

/**
 * How the browser gets a locale's searcher (src/client/search.ts: the index, or the
 * server's JSON, loaded on first use). Absent on the server: the box is then a plain
 * GET form, which is also all it is with JavaScript off.
 */
export const SearchContext = createContext<((locale: string) => Promise<Searcher>) | null>(null);

/** Results listed under the box; the last option leads to the full results page. */
const BOX_RESULTS = 8;

type Shown = { query: string; results: SearchResults };

/**
 * The search box in the header, following the ARIA combobox pattern (editable, list
 * autocomplete): results appear under it as one types, arrow keys move through them,
 * Enter opens the chosen one (a client navigation: it is a link), Escape closes the
 * list and then clears the box, and a live region announces the count.
 */
export function SearchBox({ page }: { page: PageData }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const source = useContext(SearchContext);
  const { locale } = page;
  // On an older docs version's page, that version's pages are searched (the latest's elsewhere).
  const version = searchVersionOf(page);
  const scope = searchScope(locale, version);
  const pageQuery = page.screen.kind === 'search' ? page.screen.query : '';
  const [value, setValue] = useState(pageQuery);
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const pending = useRef<AbortController | null>(null);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;

  // Another page (or locale): the box shows that page's query, and no stale list
  // (state adjusted while rendering, as React advises, rather than in an effect).
  const [shownFor, setShownFor] = useState(page);
  if (shownFor !== page) {
    pending.current?.abort();
    setShownFor(page);
    setValue(pageQuery);
    setShown(null);
    setOpen(false);
    setActive(-1);
  }

  async function run(query: string) {
    pending.current?.abort();
    if (!source || query.trim() === '') {
      setShown(null);
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    try {
      const searcher = await source(scope);
      const results = await searcher(query, controller.signal);
      if (controller.signal.aborted) return;
      setShown({ query, results });
      setOpen(true);
      setActive(-1);
    } catch {
      // Aborted by the next keystroke, or the index could not be had: the form still submits.
    }
  }

  const hits = shown ? shown.results.hits.slice(0, BOX_RESULTS) : [];
  const seeAll = shown ? searchPath(locale, shown.query, version) : '';
  const count = shown ? hits.length + 1 : 0;
  const expanded = open && shown !== null;

  function choose(index: number) {
    document.getElementById(optionId(index))?.click();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!shown) return;
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        setOpen(true);
        // From the box, Down goes to the first option and Up to the last; then round and round.
        setActive((current) => (!expanded || current < 0 ? (down ? 0 : count - 1) : (current + (down ? 1 : -1) + count) % count));
        return;
      }
      case 'Enter':
        if (expanded && active >= 0 && active < count) {
          event.preventDefault();
          choose(active);
        }
        return;
      case 'Escape':
        // The list closes first; a second Escape clears the box. (A type=search box would clear
        // itself, but the combobox role is not allowed on one: this box is type=text.)
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (value !== '') {
          event.preventDefault();
          pending.current?.abort();
          setValue('');
          setShown(null);
        }
        return;
    }
  }

  const announcement = !shown
    ? ''
    : shown.results.total === 0
      ? t('search.noMatch', { query: shown.query })
      : t('search.count', { count: shown.results.total });

  return (
    <search className="search-box" aria-label={t('search.label')}>
      <form action={`/${locale}/search`} method="get">
        <label className="visually-hidden" htmlFor={inputId}>
          {t('search.label')}
        </label>
        <input
          id={inputId}
          type="text"
          name="q"
          value={value}
          maxLength={MAX_QUERY_LENGTH}
          placeholder={t('search.placeholder')}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 && active < count ? optionId(active) : undefined}
          onFocus={() => source?.(scope).catch(() => {})}
          onChange={(event) => {
            setValue(event.target.value);
            void run(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
        {version && <input type="hidden" name={VERSION_PARAM} value={version} />}
        <button type="submit">{t('search.submit')}</button>
        <div
          id={listId}
          role="listbox"
          className="search-box-list"
          aria-label={t('search.results')}
          hidden={!expanded}
          // A click on an option must not take the focus from the box first (that would close the list under the pointer).
          onMouseDown={(event) => event.preventDefault()}
        >
          {expanded &&
            hits.map((hit, index) => (
              <a
                key={hit.path}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                tabIndex={-1}
                href={hit.path}
                className="search-hit"
                onClick={() => setOpen(false)}
              >
                <HitBody hit={hit} />
              </a>
            ))}
          {expanded && (
            <a
              id={optionId(hits.length)}
              role="option"
              aria-selected={active === hits.length}
              tabIndex={-1}
              href={seeAll}
              className="search-box-all"
              onClick={() => setOpen(false)}
            >
              {shown.results.total === 0 ? t('search.noMatch', { query: shown.query }) : t('search.seeAll', { query: shown.query })}
            </a>
          )}
        </div>
        <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {expanded ? announcement : ''}
        </div>
      </form>
    </search>
  );
}
