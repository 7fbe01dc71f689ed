import type { ReactNode } from 'react';
import { Links, Meta, Outlet, Scripts, isRouteErrorResponse, useParams } from 'react-router';
import type { Route } from './+types/root';

export function Layout({ children }: { children: ReactNode }) {
  const { locale } = useParams();
  return (
    <html lang={locale ?? 'en'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <h1>{isRouteErrorResponse(error) ? error.status : 500}</h1>;
}
