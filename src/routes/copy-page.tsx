import { useIntl } from '../i18n/context.tsx';
import { twinPath } from './twin.ts';

/**
 * "Copy page as Markdown", beside a page's title: the page's Markdown twin to the
 * clipboard. Hidden in the server's HTML (it needs a script to copy); the page's lazy
 * script shows it and does the copying (src/client/copy-page.ts), as for code blocks.
 */
export function CopyPage({ path }: { path: string }) {
  const intl = useIntl();
  return (
    <button
      type="button"
      className="copy-page"
      data-twin={twinPath(path, intl.locale)}
      data-copied={intl.formatMessage({ id: 'page.copiedMarkdown' })}
      hidden
    >
      {intl.formatMessage({ id: 'page.copyMarkdown' })}
    </button>
  );
}
