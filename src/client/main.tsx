import { hydrateRoot } from 'react-dom/client';
import { makeIntl } from '../i18n/intl.ts';
import { App } from '../routes/app.tsx';
import { readPayload } from '../routes/page-data.ts';

// The server embedded this page's data and its locale's messages; hydrate #root with them.
const payload = readPayload(document);
const intl = makeIntl(payload.page.locale, payload.messages ?? {});
hydrateRoot(document.getElementById('root')!, <App page={payload.page} intl={intl} />);
