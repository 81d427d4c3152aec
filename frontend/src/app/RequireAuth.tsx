import { Navigate, Outlet, useLocation } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { isUnauthenticated, useCurrentUser } from '@/features/auth';

import { AppLayout } from './AppLayout';

/** Every page but /login needs a session; anonymous visitors go to the login page and come back after. */
export function RequireAuth() {
  const currentUser = useCurrentUser();
  const location = useLocation();

  if (currentUser.data) {
    return (
      <AppLayout user={currentUser.data}>
        <Outlet />
      </AppLayout>
    );
  }
  if (currentUser.isError && isUnauthenticated(currentUser.error)) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  if (currentUser.isError) {
    return (
      <main className="content">
        <ErrorList error={currentUser.error} title="Could not check your session." />
        <button type="button" onClick={() => currentUser.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  return (
    <main className="content">
      <Loading label="Checking your session…" />
    </main>
  );
}
