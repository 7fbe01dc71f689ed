import { type RouteConfig, route } from '@react-router/dev/routes';

// One catch-all route: /<locale> and /<locale>/<slug...>.
export default [route(':locale/*', 'routes/docs.tsx')] satisfies RouteConfig;
