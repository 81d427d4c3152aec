import { Navigate } from 'react-router';

import { landingPath, useCurrentUser } from '@/features/auth';

/** "/": a technician's day, everyone else's fabrics (the same page login sends them to). */
export function LandingRedirect() {
  const user = useCurrentUser();
  return <Navigate to={landingPath(user.data)} replace />;
}
