import { useIntl } from '../../i18n/context.tsx';
import { Content } from '../content.tsx';
import type { NavNode, ScreenData } from '../types.ts';

export function Docs({ data, path, lang }: { data: Extract<ScreenData, { screen: 'docs' }>; path: string; lang: string | undefined }) {
  const intl = useIntl();
  return (
    <div className="docs">
      <nav className="docs-sidebar" aria-label={intl.formatMessage({ id: 'docs.sidebar' })}>
        <Tree nodes={data.sidebar} current={path} />
      </nav>
      <article className="docs-article" lang={lang}>
        <h1 tabIndex={-1}>{data.title}</h1>
        <Content html={data.html} />
        {(data.previous || data.next) && (
          <div className="pager">
            {data.previous && (
              <a rel="prev" href={data.previous.path}>
                {intl.formatMessage({ id: 'docs.previous' }, { title: data.previous.title })}
              </a>
            )}
            {data.next && (
              <a rel="next" href={data.next.path}>
                {intl.formatMessage({ id: 'docs.next' }, { title: data.next.title })}
              </a>
            )}
          </div>
        )}
      </article>
    </div>
  );
}

function Tree({ nodes, current }: { nodes: NavNode[]; current: string }) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.path}>
          <a href={node.path} lang={node.lang} aria-current={node.path === current ? 'page' : undefined}>
            {node.title}
          </a>
          {node.children.length > 0 && <Tree nodes={node.children} current={current} />}
        </li>
      ))}
    </ul>
  );
}
