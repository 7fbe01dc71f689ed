import { createContext, useContext } from 'react';
import type { IntlShape } from './intl.ts';

export const IntlContext = createContext<IntlShape<string> | null>(null);

export function useIntl(): IntlShape<string> {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error('useIntl() needs an <IntlContext.Provider> above it (see src/routes/app.tsx).');
  return intl;
}
