import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const location = useLocation();
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{location.pathname}</code>. <Link to="/fabrics">Go to fabrics</Link>
      </p>
    </section>
  );
}
