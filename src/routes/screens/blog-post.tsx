import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import type { ScreenData } from '../types.ts';

export function BlogPost({ data, lang }: { data: Extract<ScreenData, { kind: 'blog-post' }>; lang: string | undefined }) {
  const intl = useIntl();
  return (
    <article className="blog-post" lang={lang}>
      <h1 tabIndex={-1}>{data.title}</h1>
      <p className="byline">
        <time dateTime={data.isoDate}>{intl.formatMessage({ id: 'blog.published' }, { date: data.date })}</time>
        {' · '}
        <span>{intl.formatMessage({ id: 'blog.byline' }, { author: data.author })}</span>
        {' · '}
        <span>{intl.formatMessage({ id: 'blog.readingTime' }, { minutes: data.readingMinutes })}</span>
      </p>
      <Content html={data.html} />
    </article>
  );
}
