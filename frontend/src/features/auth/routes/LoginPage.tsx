import { Navigate, useNavigate, useSearchParams } from 'react-router';

import { useCurrentUser } from '../api/useCurrentUser';
import { useLogin } from '../api/useLogin';
import { LoginForm } from '../components/LoginForm';
import { landingPath } from '../roles';
import { safeNext } from '../safeNext';

export function LoginPage() {
  const [searchParams] = useSearchParams();
  // No page asked for: the user's own landing page (a technician's is Today).
  const asked = searchParams.get('next');
  const destination = (user: Parameters<typeof landingPath>[0]) => (asked ? safeNext(asked) : landingPath(user));
  const navigate = useNavigate();
  const currentUser = useCurrentUser();
  const login = useLogin();

  // Already logged in (e.g. back button): no reason to show the form.
  if (currentUser.data && !login.isPending) return <Navigate to={destination(currentUser.data)} replace />;

  return (
    <main className="login-page">
      <div className="login-card">
        <h1>Lightpath</h1>
        <p className="lede">Optical link operations for Clos fabrics. Log in to continue.</p>
        <LoginForm
          submitting={login.isPending}
          error={login.error}
          onSubmit={(credentials) =>
            login.mutate(credentials, { onSuccess: (user) => navigate(destination(user), { replace: true }) })
          }
        />
      </div>
    </main>
  );
}
