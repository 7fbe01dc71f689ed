import { useEffect, useState } from 'react';
import type { ListingGroup } from '../types.ts';

/**
 * Every page of a long section, by title under its initial: every page can be
 * reached by links, without search. With JavaScript a filter narrows the list;
 * without it, the box is not shown (it could do nothing).
 */
export function Listing({
  groups,
  locale,
  label,
  filterLabel,
}: {
  groups: ListingGroup[];
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
        {shown.map((group) => (
          <a key={group.label} href={`#initial-${encodeURIComponent(group.label)}`}>
            {group.label}
          </a>
        ))}
      </p>
      {shown.map((group) => (
        <div key={group.label}>
          <h3 id={`initial-${encodeURIComponent(group.label)}`}>{group.label}</h3>
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
    </section>
  );
}
