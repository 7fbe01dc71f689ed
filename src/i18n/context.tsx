import { createContext, useContext } from 'react';
import type { SiteIntl } from './intl.ts';

export const IntlContext = createContext<SiteIntl | null>(null);

export function useIntl(): SiteIntl {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error('useIntl() needs an <IntlContext.Provider> above it (see src/routes/app.tsx).');
  return intl;
}
