import { createContext, useContext } from 'react';
import type { Translator } from './intl.ts';

export const IntlContext = createContext<Translator | null>(null);

export function useIntl(): Translator {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error('useIntl() needs an <IntlContext.Provider> above it (see src/routes/app.tsx).');
  return intl;
}
