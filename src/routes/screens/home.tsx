import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import { PostList } from './post-list.tsx';
import type { ScreenData } from '../types.ts';

export function Home({ data, lang }: { data: Extract<ScreenData, { kind: 'home' }>; lang: string | undefined }) {
  const intl = useIntl();
  return (
    <>
      <article className="home" lang={lang}>
        <h1 tabIndex={-1}>{data.title}</h1>
        <Content html={data.html} />
        <p className="cta">
          <a href={`/${intl.locale}/docs/getting-started`}>{intl.formatMessage({ id: 'home.startReading' })}</a>
        </p>
      </article>
      {data.posts.length > 0 && (
        <section className="latest" aria-labelledby="latest-heading">
          <h2 id="latest-heading">{intl.formatMessage({ id: 'home.latestPosts' })}</h2>
          <PostList posts={data.posts} />
        </section>
      )}
    </>
  );
}
