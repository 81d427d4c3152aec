/** What the app and other features may use of auth: the current user, logging out and the role checks. */
export type { CurrentUser } from './api/types';
export { isUnauthenticated, useCurrentUser } from './api/useCurrentUser';
export { useLogout } from './api/useLogout';
export {
  canCancelJob,
  canChangeLinkState,
  canEditConstraints,
  canOverrideCapacity,
  canWorkTickets,
  landingPath,
} from './roles';
