import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache, createElement } from 'react';
import { docsPage, pageModel } from '../fixture/page.ts';
import { Counter } from './counter.tsx';

/** The catch-all page of both modes; `page.dynamic.tsx` and `page.static.tsx` add the segment config. */
export type PageProps = { params: Promise<{ locale: string; slug?: string[] }> };

// Metadata and page ask for the same model: computed once per request, as Next recommends.
const load = cache((locale: string, slug: string) => pageModel(locale, slug) ?? notFound());

async function page(props: PageProps) {
  const { locale, slug = [] } = await props.params;
  return load(locale, slug.join('/'));
}

export async function generateMetadata(props: PageProps): Promise<Metadata> {
  const model = await page(props);
  return { title: model.title, description: model.description };
}

export default async function DocsPage(props: PageProps) {
  const model = await page(props);
  return docsPage({ createElement }, model, <Counter {...model.counter} />);
}
