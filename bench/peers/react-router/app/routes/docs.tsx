import { createElement } from 'react';
import { data } from 'react-router';
import { docsPage, pageModel } from '../../../fixture/page.ts';
import { Counter } from '../counter.ts';
import type { Route } from './+types/docs';

export function loader({ params }: Route.LoaderArgs) {
  const page = pageModel(params.locale, params['*'] ?? '');
  if (!page) throw data(null, { status: 404 });
  return page;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData.title }, { name: 'description', content: loaderData.description }];
}

// The whole document hydrates, as React Router does; the counter is the page's one interactive part.
export default function Docs({ loaderData }: Route.ComponentProps) {
  return docsPage({ createElement }, loaderData, <Counter {...loaderData.counter} />);
}
