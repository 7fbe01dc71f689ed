import type { ReactNode } from 'react';
import { IntlContext } from '../i18n/context.tsx';
import type { MessageIntl } from '../i18n/intl.ts';
import { Layout } from './layout.tsx';
import { Home } from './screens/home.tsx';
import { Docs } from './screens/docs.tsx';
import { BlogIndex } from './screens/blog-index.tsx';
import { BlogPost } from './screens/blog-post.tsx';
import { Article } from './screens/article.tsx';
import { NotFound } from './screens/not-found.tsx';
import { Search } from './screens/search.tsx';
import type { PageData } from './types.ts';

/**
 * The whole visible page for one PageData: the same component renders on the
 * server (inside the document shell) and hydrates in the browser.
 */
export function App({ page, intl }: { page: PageData; intl: MessageIntl }) {
  // The content's language differs from the page's when it is a fallback.
  const contentLang = page.fallback?.contentLocale;
  return (
    <IntlContext.Provider value={intl}>
      <Layout page={page}>{renderScreen(page, contentLang)}</Layout>
    </IntlContext.Provider>
  );
}

function renderScreen({ screen, path }: PageData, contentLang: string | undefined): ReactNode {
  switch (screen.kind) {
    case 'home':
      return <Home data={screen} lang={contentLang} />;
    case 'docs':
      return <Docs data={screen} path={path} lang={contentLang} />;
    case 'blog-index':
      return <BlogIndex data={screen} path={path} lang={contentLang} />;
    case 'blog-post':
      return <BlogPost data={screen} lang={contentLang} />;
    case 'article':
      return <Article data={screen} path={path} lang={contentLang} />;
    case 'not-found':
      return <NotFound data={screen} />;
    case 'search':
      return <Search data={screen} />;
  }
}
