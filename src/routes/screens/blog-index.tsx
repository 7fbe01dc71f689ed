import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import { PostList } from './post-list.tsx';
import type { ScreenData } from '../types.ts';

export function BlogIndex({ data, lang }: { data: Extract<ScreenData, { screen: 'blog-index' }>; lang: string | undefined }) {
  const intl = useIntl();
  return (
    <article className="blog-index" lang={lang}>
      <h1 tabIndex={-1}>{data.title}</h1>
      <Content html={data.html} />
      <p className="post-count">{intl.formatMessage({ id: 'blog.postCount' }, { count: data.posts.length })}</p>
      <PostList posts={data.posts} />
    </article>
  );
}
