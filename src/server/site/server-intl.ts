import { causeOf } from '../../i18n/failure-cause.ts';
import { type MessageFailure, makeIntls, type SiteIntl } from '../../i18n/intl.ts';
import type { MessageCatalog } from '../content/messages.ts';
import type { Logger } from '../http/log.ts';
import { reportServerError } from '../monitoring/server-monitoring.ts';

/**
 * Every locale's IntlShape, made once at start-up with one shared cache of Intl
 * objects: the same messages and the same fallbacks as the browser's (the asset
 * message-assets.ts serves is `localeMessages`), so hydration sees the same text.
 * A message that fails is logged and reported to Sentry (when on) once per locale
 * and key; the page shows the default locale's message instead.
 */
export function makeServerIntls(catalog: MessageCatalog, defaultLocale: string, log?: Pick<Logger, 'warn'>): Map<string, SiteIntl> {
  return makeIntls(catalog, defaultLocale, (failure) => reportMessageFailure(failure, log));
}

function reportMessageFailure({ locale, id, error }: MessageFailure, log: Pick<Logger, 'warn'> | undefined): void {
  const cause = causeOf(error);
  const message = `message "${id}" of locale "${locale}" did not format; the default locale's message (or the key) is shown`;
  if (log) log.warn(message, { locale, key: id, cause });
  else process.stderr.write(`polysite: ${message}: ${cause}\n`);
  reportServerError(error);
}
