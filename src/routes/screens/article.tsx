import { Content } from '../content.tsx';
import type { ScreenData } from '../types.ts';

export function Article({ data, lang }: { data: Extract<ScreenData, { kind: 'article' }>; lang: string | undefined }) {
  return (
    <article className="article" lang={lang}>
      <h1 tabIndex={-1}>{data.title}</h1>
      <Content html={data.html} />
    </article>
  );
}
