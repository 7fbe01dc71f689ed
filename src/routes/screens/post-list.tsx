import type { PostSummary } from '../types.ts';

export function PostList({ posts }: { posts: PostSummary[] }) {
  return (
    <ul className="post-list">
      {posts.map((post) => (
        <li key={post.path}>
          <a href={post.path}>{post.title}</a>
          <time dateTime={post.isoDate}>{post.date}</time>
          <p>{post.description}</p>
        </li>
      ))}
    </ul>
  );
}
