import type { Config } from '@react-router/dev/config';

// Framework mode, rendered on the server for every request (no prerendering).
export default { ssr: true } satisfies Config;
