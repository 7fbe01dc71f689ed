import type { ReactNode } from 'react';
import type { MessageIntl } from '../i18n/intl.ts';
import type { PageData, PageDate } from './types.ts';

/** Stands for a date in a message while it is formatted: a private-use character no message holds. */
const DATE_MARK = '\uE000';

/**
 * A message with its date values as `<time>` elements: formatted with a mark in each
 * date's place (word order is the translator's) and cut at the marks, so the message
 * stays one string and the dates machine-readable.
 */
export function withDates(intl: MessageIntl, id: string, dates: Record<string, PageDate>, values: Record<string, string> = {}): ReactNode {
  const names = Object.keys(dates);
  const marked = intl.formatMessage(
    { id },
    { ...values, ...Object.fromEntries(names.map((name, i) => [name, `${DATE_MARK}${i}${DATE_MARK}`])) },
  );
  return marked.split(new RegExp(`${DATE_MARK}(\\d+)${DATE_MARK}`)).map((part, i) => {
    if (i % 2 === 0) return part;
    const date = dates[names[Number(part)]!]!;
    return (
      <time key={part} dateTime={date.iso}>
        {date.text}
      </time>
    );
  });
}

/** Under the page's text: when it last changed, and where to edit it. */
export function PageMeta({ page, intl }: { page: PageData; intl: MessageIntl }) {
  if (!page.updated && !page.edit) return null;
  return (
    <div className="page-meta">
      {page.updated && <p>{withDates(intl, 'page.lastUpdated', { date: page.updated })}</p>}
      {page.edit && (
        <p>
          <a href={page.edit.href} rel="nofollow">
            {intl.formatMessage({ id: 'page.edit' })}
          </a>
        </p>
      )}
      {page.edit?.translate && (
        <p>
          <a href={page.edit.translate} rel="nofollow">
            {intl.formatMessage({ id: 'page.translate' })}
          </a>
        </p>
      )}
    </div>
  );
}
