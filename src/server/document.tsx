import { App } from '../routes/app.tsx';
import { ANNOUNCER_ELEMENT_ID, PAYLOAD_ELEMENT_ID, PROGRESS_ELEMENT_ID, ROOT_ELEMENT_ID } from '../routes/page-data.ts';
import type { Translator } from '../i18n/intl.ts';
import type { PageData } from '../routes/types.ts';
import type { Manifest } from './manifest.ts';

/** `payload` is the page's embedded JSON, already escaped (see routes/page-data.ts#serializePayload). */
type Props = { page: PageData; intl: Translator; payload: string; manifest: Manifest };

/**
 * The HTML shell. The browser hydrates only #root (with the same <App>); the
 * head is the server's, and client navigation updates it by hand. No inline
 * script: the data is JSON in a non-executed script element (CSP friendly).
 */
export function Document({ page, intl, payload, manifest }: Props) {
  const { head } = page;
  return (
    <html lang={page.locale} dir={page.dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        {head.canonical && <link rel="canonical" href={head.canonical} />}
        {head.alternates.map((alternate) => (
          <link key={alternate.hreflang} rel="alternate" hrefLang={alternate.hreflang} href={alternate.href} />
        ))}
        {head.canonical === null && <meta name="robots" content="noindex" />}
        <link rel="icon" href={manifest.icon} type="image/svg+xml" />
        <link rel="stylesheet" href={manifest.css} />
        <link rel="modulepreload" href={manifest.js} />
        {manifest.preload.map((chunk) => (
          <link key={chunk} rel="modulepreload" href={chunk} />
        ))}
      </head>
      <body>
        {/* Outside #root: the client drives these by hand during navigations. */}
        <div id={PROGRESS_ELEMENT_ID} className="progress" hidden />
        <div id={ANNOUNCER_ELEMENT_ID} className="visually-hidden" aria-live="polite" aria-atomic="true" />
        <div id={ROOT_ELEMENT_ID}>
          <App page={page} intl={intl} />
        </div>
        <script
          type="application/json"
          id={PAYLOAD_ELEMENT_ID}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped for HTML by serializePayload (src/routes/page-data.ts).
          dangerouslySetInnerHTML={{ __html: payload }}
        />
        <script type="module" src={manifest.js} />
      </body>
    </html>
  );
}
