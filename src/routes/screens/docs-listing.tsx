import { useEffect, useState } from 'react';
import { useIntl } from '../../i18n/context.tsx';
import type { ListingGroup, ListingPager } from '../types.ts';

/**
 * Every page of a long section, by title under its initial: every page can be
 * reached by links, without search. A listing longer than one page holds goes on
 * over numbered pages, linked by a pager, and its initials bar names every initial
 * with the page it starts on. With JavaScript a filter narrows the list shown;
 * without it, the box is not shown (it could do nothing).
 */
export function Listing({
  groups,
  pager,
  locale,
  label,
  filterLabel,
}: {
  groups: ListingGroup[];
  pager?: ListingPager | undefined;
  locale: string;
  /** The list's heading and its filter's label, in the page's language. */
  label: string;
  filterLabel: string;
}) {
  const [filter, setFilter] = useState('');
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const wanted = filter.trim().toLocaleLowerCase(locale);
  const shown = wanted
    ? groups
        .map((group) => ({ ...group, links: group.links.filter((link) => link.title.toLocaleLowerCase(locale).includes(wanted)) }))
        .filter((group) => group.links.length > 0)
    : groups;
  // The whole listing's initials, each on its page; while filtering, those of what is shown.
  const initials =
    pager && !wanted
      ? pager.initials.map(({ label, path }) => ({ label, href: `${path ?? ''}#${initialId(label)}` }))
      : shown.map((group) => ({ label: group.label, href: `#${initialId(group.label)}` }));
  return (
    <section className="docs-listing" aria-label={label}>
      <h2>{label}</h2>
      <input
        type="search"
        hidden={!interactive}
        aria-label={filterLabel}
        placeholder={filterLabel}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      <p className="docs-initials">
        {initials.map((initial) => (
          <a key={initial.label} href={initial.href}>
            {initial.label}
          </a>
        ))}
      </p>
      {shown.map((group) => (
        <div key={group.label}>
          <h3 id={initialId(group.label)}>{group.label}</h3>
          <ul>
            {group.links.map((link) => (
              <li key={link.path}>
                <a href={link.path} lang={link.lang}>
                  {link.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {pager && <Pager pager={pager} />}
    </section>
  );
}

/** Previous and next page of the listing, and where this one is among them. */
function Pager({ pager }: { pager: ListingPager }) {
  const intl = useIntl();
  const { page, pages } = pager;
  return (
    <nav className="listing-pager" aria-label={intl.formatMessage({ id: 'docs.listingPages' })}>
      {pager.previous && <a href={pager.previous}>{intl.formatMessage({ id: 'docs.listingPrevious' })}</a>}
      <span aria-current="page">{intl.formatMessage({ id: 'docs.listingPage' }, { page, pages })}</span>
      {pager.next && <a href={pager.next}>{intl.formatMessage({ id: 'docs.listingNext' })}</a>}
    </nav>
  );
}

/** The id of an initial's heading (`initial-A`): what the initials bar links to. */
function initialId(label: string): string {
  return `initial-${encodeURIComponent(label)}`;
}
