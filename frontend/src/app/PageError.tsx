import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * A page that throws while rendering shows this inside the layout, so the navigation stays; React
 * Router's default screen ("Unexpected Application Error!") replaces the whole app and speaks to
 * developers.
 */
export function PageError() {
  const error = useRouteError();
  const location = useLocation();
  return (
    <section role="alert" data-testid="page-error">
      <h1>This page could not be shown</h1>
      <p>
        Something on <code>{location.pathname}</code> failed: {describe(error)}
      </p>
      <p>
        Reload to try again, or <Link to="/fabrics">go to fabrics</Link>.
      </p>
    </section>
  );
}
