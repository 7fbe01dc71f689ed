import { READ_BACK } from './read-back.ts';
import type { PageData } from './types.ts';

/**
 * Links to this same page in every locale; the browser side also remembers the choice.
 * Read back by the browser (read-back.ts#readLocales) through READ_BACK.localeSwitch.
 */
export function LanguageSwitcher({ page, label }: { page: PageData; label: string }) {
  return (
    <nav className="language-switcher" aria-label={label}>
      <ul>
        {page.locales.map((entry) => (
          <li key={entry.locale}>
            <a
              href={entry.path}
              hrefLang={entry.locale}
              lang={entry.locale}
              dir={entry.dir}
              {...{ [READ_BACK.localeSwitch]: entry.locale }}
              aria-current={entry.locale === page.locale ? 'true' : undefined}
            >
              {entry.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
