import { Navigate, useNavigate, useSearchParams } from 'react-router';

import { useCurrentUser } from '../api/useCurrentUser';
import { useLogin } from '../api/useLogin';
import { LoginForm } from '../components/LoginForm';
import { safeNext } from '../safeNext';

export function LoginPage() {
  const [searchParams] = useSearchParams();
  const next = safeNext(searchParams.get('next'));
  const navigate = useNavigate();
  const currentUser = useCurrentUser();
  const login = useLogin();

  // Already logged in (e.g. back button): no reason to show the form.
  if (currentUser.data && !login.isPending) return <Navigate to={next} replace />;

  return (
    <main className="login-page">
      <div className="login-card">
        <h1>Lightpath</h1>
        <p className="lede">Optical link operations for Clos fabrics. Log in to continue.</p>
        <LoginForm
          submitting={login.isPending}
          error={login.error}
          onSubmit={(credentials) => login.mutate(credentials, { onSuccess: () => navigate(next, { replace: true }) })}
        />
      </div>
    </main>
  );
}
