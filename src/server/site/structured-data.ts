import { escapeJsonForHtml } from '../../routes/page-data.ts';

// schema.org structured data (JSON-LD) for a page: what search engines read
// besides the text. Pure: made from what the page store already knows.

/** What a page's structured data is made from; `kind` is its screen (src/routes/table.ts). */
export type StructuredInput = {
  kind: string | null;
  siteName: string;
  /** Absolute URL of the page (its canonical); structured data needs one. */
  url: string;
  title: string;
  description: string;
  /** The language the text is written in (a fallback's is the default locale's). */
  language: string;
  date?: string | undefined;
  updated?: string | undefined;
  author?: string | undefined;
  /** Absolute URL of the share image, if any. */
  image?: string | undefined;
  /** Docs pages: the docs index, the sections above the page, the page; each with its title and absolute URL. */
  breadcrumbs: readonly { name: string; url: string }[];
};

type Thing = Record<string, unknown>;

/**
 * The JSON-LD text, escaped exactly like the embedded page data (so no title can
 * end the script element), or null when the page has none: `WebSite` on a home
 * page, `TechArticle` plus a `BreadcrumbList` on docs, `Article` on a blog post.
 */
export function structuredData(input: StructuredInput): string | null {
  const things = thingsOf(input);
  if (things.length === 0) return null;
  const json =
    things.length === 1 ? { '@context': 'https://schema.org', ...things[0] } : { '@context': 'https://schema.org', '@graph': things };
  return escapeJsonForHtml(JSON.stringify(json));
}

function thingsOf(input: StructuredInput): Thing[] {
  switch (input.kind) {
    case 'home':
      return [{ '@type': 'WebSite', name: input.siteName, url: input.url, inLanguage: input.language, description: input.description }];
    case 'docs':
      // A trail of one (the docs index itself) says nothing a breadcrumb could.
      return [article('TechArticle', input), ...(input.breadcrumbs.length > 1 ? [breadcrumbList(input.breadcrumbs)] : [])];
    case 'blog-post':
      return [article('Article', input)];
    default:
      return [];
  }
}

function article(type: string, input: StructuredInput): Thing {
  return {
    '@type': type,
    headline: input.title,
    description: input.description,
    inLanguage: input.language,
    url: input.url,
    mainEntityOfPage: input.url,
    ...(input.image && { image: input.image }),
    ...(input.date && { datePublished: input.date }),
    ...((input.updated ?? input.date) && { dateModified: input.updated ?? input.date }),
    ...(input.author && { author: { '@type': 'Person', name: input.author } }),
    publisher: { '@type': 'Organization', name: input.siteName },
  };
}

function breadcrumbList(crumbs: StructuredInput['breadcrumbs']): Thing {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map(({ name, url }, index) => ({ '@type': 'ListItem', position: index + 1, name, item: url })),
  };
}
