import { Content } from '../content.tsx';
import { CopyPage } from '../copy-page.tsx';
import type { ScreenData } from '../types.ts';

export function Article({ data, path, lang }: { data: Extract<ScreenData, { kind: 'article' }>; path: string; lang: string | undefined }) {
  return (
    <article className="article" lang={lang}>
      <h1 tabIndex={-1}>{data.title}</h1>
      <CopyPage path={path} />
      <Content html={data.html} />
    </article>
  );
}
