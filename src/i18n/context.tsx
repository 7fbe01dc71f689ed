import { createContext, useContext } from 'react';
import type { MessageIntl } from './intl.ts';

export const IntlContext = createContext<MessageIntl | null>(null);

export function useIntl(): MessageIntl {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error('useIntl() needs an <IntlContext.Provider> above it (see src/routes/app.tsx).');
  return intl;
}
