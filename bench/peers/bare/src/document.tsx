import { createElement } from 'react';
import { docsPage, type PageModel } from '../../fixture/page.ts';
import { Counter } from './counter.ts';

/** The whole HTML document; the counter's container carries its props for the client. */
export function Document({ page }: { page: PageModel }) {
  return (
    <html lang={page.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{page.title}</title>
        <meta name="description" content={page.description} />
        <script type="module" src="/client.js" />
      </head>
      <body>
        {docsPage(
          { createElement },
          page,
          <div id="counter" data-props={JSON.stringify(page.counter)}>
            <Counter {...page.counter} />
          </div>,
        )}
      </body>
    </html>
  );
}
