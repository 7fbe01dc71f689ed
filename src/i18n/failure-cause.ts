// Shared by the server's log (site/server-intl.ts) and the browser's console (client/message-failure.ts).

/**
 * What went wrong, in one line: @formatjs/intl writes the formatter's own error (`The intl
 * string context variable "titulo" was not provided...`) after the message's context.
 */
export function causeOf(error: Error): string {
  const [first = '', ...rest] = error.message.split('\n');
  const afterLocale = rest.findIndex((line) => line.startsWith('Locale: '));
  return (afterLocale >= 0 && rest.slice(afterLocale + 1).find((line) => line.trim())) || first;
}
