import { pagePaths } from '../../../../fixture/page.ts';

// Every page of every locale prerendered at build time; any other path is a 404.
export const dynamicParams = false;
export function generateStaticParams() {
  return pagePaths();
}
export { default, generateMetadata } from '../../../docs-page.tsx';
