import { useIntl } from '../../i18n/context.tsx';
import type { ScreenData } from '../types.ts';

export function NotFound({ data }: { data: Extract<ScreenData, { kind: 'not-found' }> }) {
  const intl = useIntl();
  const home = `/${intl.locale}`;
  return (
    <article className="not-found">
      <h1 tabIndex={-1}>{intl.formatMessage({ id: 'notFound.title' })}</h1>
      {/* The path is the visitor's own input: React escapes it as text. */}
      <p>
        {data.path ? intl.formatMessage({ id: 'notFound.body' }, { path: data.path }) : intl.formatMessage({ id: 'notFound.bodyNoPath' })}
      </p>
      <ul>
        <li>
          <a href={home}>{intl.formatMessage({ id: 'notFound.home' })}</a>
        </li>
        <li>
          <a href={`${home}/docs`}>{intl.formatMessage({ id: 'notFound.docs' })}</a>
        </li>
      </ul>
    </article>
  );
}
