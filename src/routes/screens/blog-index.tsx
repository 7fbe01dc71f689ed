import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import { ATOM_TYPE, feedPath } from '../feed.ts';
import { PostList } from './post-list.tsx';
import type { ScreenData } from '../types.ts';

/** `path`: the blog's own, which its feed sits under. */
export function BlogIndex({
  data,
  path,
  lang,
}: {
  data: Extract<ScreenData, { kind: 'blog-index' }>;
  path: string;
  lang: string | undefined;
}) {
  const intl = useIntl();
  return (
    <article className="blog-index" lang={lang}>
      <h1 tabIndex={-1}>{data.title}</h1>
      <Content html={data.html} />
      <p className="post-count">{intl.formatMessage({ id: 'blog.postCount' }, { count: data.posts.length })}</p>
      <p className="feed-link">
        <a href={feedPath(path)} type={ATOM_TYPE}>
          {intl.formatMessage({ id: 'blog.feed' })}
        </a>
      </p>
      <PostList posts={data.posts} />
    </article>
  );
}
