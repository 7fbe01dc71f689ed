import type { ReactNode } from 'react';
import { useIntl } from '../i18n/context.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { PageMeta, withDates } from './page-meta.tsx';
import { ThemeSwitch } from './theme-switch.tsx';
import { SearchBox } from './search-box.tsx';
import { VersionBanner, VersionSwitcher } from './version-switcher.tsx';
import { FOOTER_ELEMENT_ID, MAIN_ELEMENT_ID } from './page-data.ts';
import type { PageData } from './types.ts';

/** The header's sections: the page a link goes to (its key, see content/paths.ts) and the label's message id. */
export const SECTIONS = [
  { key: '', label: 'nav.home' },
  { key: 'docs', label: 'nav.docs' },
  { key: 'blog', label: 'nav.blog' },
  { key: 'about', label: 'nav.about' },
] as const;

/** Header, navigation, language switcher, the screen, footer: the same on every page. */
export function Layout({ page, children }: { page: PageData; children: ReactNode }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const home = `/${page.locale}`;
  return (
    <>
      <a className="skip-link" href={`#${MAIN_ELEMENT_ID}`}>
        {t('nav.skipToContent')}
      </a>
      <header className="site-header">
        <a className="brand" href={home}>
          <span className="brand-name">{t('site.name')}</span>
          <span className="brand-tagline">{t('site.tagline')}</span>
        </a>
        <nav className="site-nav" aria-label={t('nav.primary')}>
          <ul>
            {page.nav.map(({ label, path }) => {
              const current = page.path === path || (path !== home && page.path.startsWith(`${path}/`));
              return (
                <li key={label}>
                  <a href={path} aria-current={current ? 'page' : undefined}>
                    {t(label)}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <SearchBox page={page} />
        <VersionSwitcher page={page} label={t('version.switcher')} />
        <LanguageSwitcher page={page} label={t('switcher.label')} />
        <ThemeSwitch intl={intl} />
      </header>
      <main id={MAIN_ELEMENT_ID} className="site-main">
        <VersionBanner page={page} t={t} />
        {page.draft && (
          <p className="notice" role="note" data-notice="draft">
            {t('page.draft')}
          </p>
        )}
        {page.fallback && (
          <p className="notice" role="note">
            {t('page.untranslated', { language: page.fallback.language, original: page.fallback.original })}
          </p>
        )}
        {page.outdated && (
          <p className="notice" role="note" data-notice="outdated">
            {page.outdated.changed && page.outdated.translated
              ? withDates(
                  intl,
                  'page.outdatedSince',
                  { changed: page.outdated.changed, translated: page.outdated.translated },
                  { original: page.outdated.original },
                )
              : t('page.outdated')}{' '}
            <a href={page.outdated.path} hrefLang={page.outdated.lang}>
              {t('page.outdatedLink', { original: page.outdated.original })}
            </a>
          </p>
        )}
        {children}
        <PageMeta page={page} intl={intl} />
      </main>
      <footer id={FOOTER_ELEMENT_ID} className="site-footer">
        <p>{t('footer.builtWith', { localeCount: page.locales.length })}</p>
      </footer>
    </>
  );
}
