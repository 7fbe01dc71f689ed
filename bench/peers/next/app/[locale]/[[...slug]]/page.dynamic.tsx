// Rendered (server components, then HTML) on every request.
export const dynamic = 'force-dynamic';
export { default, generateMetadata } from '../../../docs-page.tsx';
