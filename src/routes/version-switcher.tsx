import type { PageData } from './types.ts';

/**
 * Links to this same page in every version of the docs (or that version's docs home
 * when it lacks the page), in the page's locale: shown beside the language switcher
 * on a versioned docs page, and styled as it is.
 */
export function VersionSwitcher({ page, label }: { page: PageData; label: string }) {
  const { version } = page;
  if (!version) return null;
  return (
    <nav className="language-switcher" aria-label={label} data-version-switch="">
      <ul>
        {version.choices.map((choice) => (
          <li key={choice.name}>
            <a href={choice.path} data-version={choice.name} aria-current={choice.name === version.name ? 'true' : undefined}>
              {choice.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** On a page of any version but the latest release: which version it is, and the way to the latest. */
export function VersionBanner({ page, t }: { page: PageData; t: (id: string, values?: Record<string, string>) => string }) {
  const banner = page.version?.banner;
  if (!banner) return null;
  const version = page.version!.label;
  return (
    <p className="notice" role="note" data-notice="version">
      {t(`version.${banner.kind}`, { version, latest: banner.latest })}{' '}
      <a href={banner.latestPath}>{t('version.latestLink', { latest: banner.latest })}</a>
    </p>
  );
}
